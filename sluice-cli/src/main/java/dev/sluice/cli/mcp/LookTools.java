/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.cli.GateJson;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.time.Duration;
import java.util.List;

/**
 * The tools that only look: {@code pending}, {@code status} and {@code diagnose}. Stateless and
 * thread-safe; {@code pending} with {@code waitSeconds} sleeps until the agent's state changes or
 * the wait ends (on the gate's wake-ups, never polling).
 */
final class LookTools {
  private LookTools() {}

  static List<GateTool> all(GateService gate) {
    return List.of(pending(gate), status(gate), diagnose(gate));
  }

  private static GateTool pending(GateService gate) {
    return new GateTool(
        "pending",
        "Your offers (with fresh offer tokens), held permits (with tokens), queued and paused"
            + " requests in this session.",
        List.of(
            Param.whole(
                "waitSeconds",
                false,
                0,
                AskTools.MAX_WAIT_SECONDS,
                "First wait up to this long for a change (default: 0, answer at once).")),
        true,
        (agent, a) -> {
          long wait = a.whole("waitSeconds", 0);
          return GateJson.pending(
              wait == 0 ? gate.pending(agent) : gate.pending(agent, Duration.ofSeconds(wait)));
        });
  }

  private static GateTool status(GateService gate) {
    return new GateTool(
        "status",
        "Every pool: capacity, used, and (detail full) its holders with agents and labels, offers,"
            + " queue and paused requests; detail summary gives the counts only.",
        List.of(
            Param.oneOf("detail", List.of("full", "summary"), "How much to show (default: full).")),
        true,
        (agent, a) -> {
          List<PoolStatus> pools = gate.status();
          if (a.text("detail", "full").equals("summary")) {
            return GateJson.object().set("pools", GateJson.array(pools, GateJson::poolSummary));
          }
          return GateJson.status(pools);
        });
  }

  private static GateTool diagnose(GateService gate) {
    return new GateTool(
        "diagnose",
        "Why the heads of queues wait, and which holders are long, dead or unverifiable.",
        List.of(),
        true,
        (agent, a) -> GateJson.diagnosis(gate.diagnose()));
  }
}
