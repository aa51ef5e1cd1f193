/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.cli.GateJson;
import dev.sluice.gate.GateService;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.ReleaseOutcome;
import dev.sluice.gate.Ticket;
import java.util.List;

/**
 * The tools for a held permit: {@code start}, {@code mark-started}, {@code heartbeat} and {@code
 * release}, each the gate call the command's verb makes. Stateless and thread-safe; each is one
 * short gate call.
 */
final class HoldTools {
  static final Param PERMIT_TOKEN =
      Param.text("permitToken", true, 1, 128, "The permit's token, from acquire or claim.");

  private HoldTools() {}

  static List<GateTool> all(GateService gate, AgentSessions sessions) {
    return List.of(start(gate), markStarted(gate, sessions), heartbeat(gate), release(gate));
  }

  private static GateTool start(GateService gate) {
    return new GateTool(
        "start",
        "Bind a permit to a running process group (its leader's pid, seen from this machine): the"
            + " permit then lasts until every process of the group has exited, even after this"
            + " session ends.",
        List.of(
            PERMIT_TOKEN,
            Param.whole(
                "pid", true, 1, Integer.MAX_VALUE, "The process: the leader of its process group."),
            Param.flag(
                "group",
                "Track the whole process group of pid even if pid does not lead it (default:"
                    + " false).")),
        false,
        (agent, a) -> {
          long pid = a.whole("pid", 0);
          ProcessRef process =
              ProcessRef.lookup(pid)
                  .orElseThrow(
                      () ->
                          new BadArgument(
                              "pid", pid, "a running process visible in this pid namespace"));
          if (process.pgid() != pid && !a.flag("group")) {
            throw new BadArgument(
                "pid",
                pid,
                "the leader of its process group (it is in group "
                    + process.pgid()
                    + "), or given with group true to track group "
                    + process.pgid());
          }
          return GateJson.ticket(gate.start(a.text("permitToken"), process));
        });
  }

  private static GateTool markStarted(GateService gate, AgentSessions sessions) {
    return new GateTool(
        "mark-started",
        "Start a permit without a process to watch (work inside this agent, or in a sandbox): it"
            + " lives on heartbeats, which this server sends for you while the session lasts.",
        List.of(PERMIT_TOKEN),
        false,
        (agent, a) -> {
          Ticket t = gate.markStarted(a.text("permitToken"));
          // Renewals are per agent (a heartbeat extends every untracked permit of the agent):
          // this session's, never those of an agent whose token was passed in.
          sessions.keepAlive(agent);
          return GateJson.ticket(t);
        });
  }

  private static GateTool heartbeat(GateService gate) {
    return new GateTool(
        "heartbeat",
        "Extend your untracked permits now and learn which were lost (the server already sends"
            + " heartbeats while the session lives). With permitTokens, reports those permits.",
        List.of(
            Param.texts(
                "permitTokens", 100, "Permit tokens to check (default: all your untracked ones).")),
        false,
        (agent, a) -> GateJson.heartbeat(agent, gate.heartbeat(agent, a.texts("permitTokens"))));
  }

  private static GateTool release(GateService gate) {
    return new GateTool(
        "release",
        "Release a permit when the work is done; releasing again answers alreadyReleased. lost"
            + " true means the gate had taken the slot back earlier.",
        List.of(PERMIT_TOKEN, Param.text("reason", false, 1, 200, "Why (default: released).")),
        false,
        (agent, a) -> {
          ReleaseOutcome r = gate.release(a.text("permitToken"), a.text("reason", "released"));
          return GateJson.release(r);
        });
  }
}
