/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.cli.GateJson;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.JobRef;
import java.time.Duration;
import java.util.List;

/**
 * The tools that ask for capacity and answer offers: {@code acquire}, {@code claim}, {@code
 * decline}, {@code rejoin} and {@code cancel}, each the gate call the command's verb makes.
 * Stateless and thread-safe; {@code acquire} with {@code waitSeconds} blocks up to that long.
 */
final class AskTools {
  /** The longest wait a call may ask for: clients give up on a call long before an hour. */
  static final long MAX_WAIT_SECONDS = 600;

  static final Param OFFER_TOKEN =
      Param.text("offerToken", true, 1, 128, "The offer's token, from acquire, rejoin or pending.");

  static final Param REQUEST_ID =
      Param.text("requestId", true, 1, 64, "The request's id (r7), from acquire or pending.");

  private AskTools() {}

  static List<GateTool> all(GateService gate) {
    return List.of(acquire(gate), claim(gate), decline(gate), rejoin(gate), cancel(gate));
  }

  private static GateTool acquire(GateService gate) {
    List<Param> params =
        List.of(
            Param.text(
                    "pool",
                    false,
                    1,
                    64,
                    "The pool (default: the gate's default.pool, else 'default'); only 'default' is"
                        + " made by its first request, others are set up with 'sluice pool set'.")
                .matching("[A-Za-z0-9][A-Za-z0-9._-]{0,63}"),
            Param.whole(
                "weight", false, 1, AcquireRequest.MAX_WEIGHT, "Capacity units (default: 1)."),
            Param.text(
                "op",
                true,
                1,
                128,
                "Your key for this operation: asking again with the same key answers the same"
                    + " request; new work needs a new key."),
            Param.text("label", false, 0, 200, "Shown to people (sluice top, status)."),
            Param.text("reason", false, 0, 500, "Why you ask."),
            Param.whole(
                "waitSeconds",
                false,
                0,
                MAX_WAIT_SECONDS,
                "Wait up to this long for a grant; an offer that arrives meanwhile is claimed"
                    + " (default: 0, answer at once)."));
    return new GateTool(
        "acquire",
        "Ask the machine-wide gate for capacity before heavy work (builds, test suites). Answers"
            + " state granted (with permitToken: start the work, then mark-started or start, and"
            + " release when done), queued (with position), offered (claim the offerToken before"
            + " offerExpiresAt), paused or conflict. Idempotent per op.",
        params,
        false,
        (agent, a) -> {
          String pool = a.text("pool", null);
          AcquireRequest request =
              new AcquireRequest(
                  agent,
                  a.text("op"),
                  pool == null ? AcquireRequest.DEFAULT_POOL : pool,
                  (int) a.whole("weight", 1),
                  a.text("label", ""),
                  a.text("reason", ""));
          if (pool == null) {
            request =
                new AcquireRequest(
                    agent,
                    request.opKey(),
                    gate.defaultPool(),
                    request.weight(),
                    request.label(),
                    request.reason());
          }
          long wait = a.whole("waitSeconds", 0);
          AcquireOutcome o =
              wait == 0 ? gate.acquire(request) : gate.acquire(request, Duration.ofSeconds(wait));
          return GateJson.outcome(o);
        });
  }

  private static GateTool claim(GateService gate) {
    return new GateTool(
        "claim",
        "Claim an offer: it becomes a permit (state held, permitToken) that must be started"
            + " (start or mark-started) before its startDeadline.",
        List.of(OFFER_TOKEN),
        false,
        (agent, a) -> GateJson.permit(gate.claim(a.text("offerToken"))));
  }

  private static GateTool decline(GateService gate) {
    return new GateTool(
        "decline",
        "Pass an offer on to the next waiter; your request pauses until you rejoin it.",
        List.of(OFFER_TOKEN),
        false,
        (agent, a) -> GateJson.ticket(gate.decline(a.text("offerToken"))));
  }

  private static GateTool rejoin(GateService gate) {
    return new GateTool(
        "rejoin",
        "Put a paused request of yours back at the tail of its queue; answers as acquire does.",
        List.of(REQUEST_ID),
        false,
        (agent, a) -> GateJson.outcome(gate.rejoin(agent, a.text("requestId"))));
  }

  private static GateTool cancel(GateService gate) {
    return new GateTool(
        "cancel",
        "Withdraw a queued, offered or paused request of yours, named by requestId or by label"
            + " (exactly one). A request holding a permit is refused: release it instead.",
        List.of(
            Param.text("requestId", false, 1, 64, "The request's id (r7)."),
            Param.text("label", false, 1, 200, "The label of your one waiting request.")),
        false,
        (agent, a) -> {
          if (a.has("requestId") == a.has("label")) {
            throw new BadArgument(
                a.has("label") ? "label" : "requestId",
                a.has("label") ? a.text("label") : null,
                "given alone: name the request by requestId or by label, exactly one");
          }
          JobRef job =
              a.has("requestId")
                  ? new JobRef.ById(a.text("requestId"))
                  : new JobRef.ByLabel(a.text("label"));
          return GateJson.ticket(gate.cancel(agent, job));
        });
  }
}
