/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.cli.Durations;
import dev.sluice.gate.GateService;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Duration;
import java.util.Optional;

/**
 * What {@code force-release --kill} does before it frees the slot: SIGTERM to the permit's whole
 * process group, a wait of up to the grace period for the permit to end (its launcher reports the
 * end, or the gate sees the group gone), then SIGKILL to whatever of the group still runs.
 *
 * <p>Not thread-safe: one invocation, one thread. {@link #stop} blocks up to the grace period,
 * sleeping in the gate's own wait (woken by its pulse or its re-check of a launcher-less group).
 */
final class GroupKill {
  private GroupKill() {}

  /** Which signal ended the group, as the answer and the event say it. */
  enum Outcome {
    /** The permit had no running process group: nothing was sent. */
    NOTHING_RUNNING,
    /** SIGTERM was enough: the group ended within the grace period. */
    SIGTERM,
    /** The group outlived the grace period and got SIGKILL. */
    SIGKILL;

    /** How the event and the text say it, for example {@code killed pgid 42 (SIGTERM)}. */
    String describe(long pgid, Duration grace) {
      return switch (this) {
        case NOTHING_RUNNING -> "";
        case SIGTERM -> "killed pgid " + pgid + " (SIGTERM)";
        case SIGKILL ->
            "killed pgid " + pgid + " (SIGTERM, then SIGKILL after " + Durations.human(grace) + ")";
      };
    }
  }

  /**
   * Stops the process group of a held, tracked permit.
   *
   * @return how it ended, with the group's id (0 if nothing ran)
   * @throws InterruptedException if interrupted during the grace period (SIGTERM was sent)
   */
  static Result stop(GateService gate, String requestId, String actor, Duration grace)
      throws InterruptedException {
    Optional<ProcessRef> group =
        gate.ticket(requestId)
            .filter(t -> t.state() == TicketState.HELD)
            .flatMap(Ticket::trackedProcess)
            .filter(ProcessRef::groupMayRun);
    if (group.isEmpty()) {
      return new Result(Outcome.NOTHING_RUNNING, 0);
    }
    long pgid = group.get().pgid();
    gate.signalled(requestId, actor, "SIGTERM to process group " + pgid);
    GroupSignals.send("TERM", pgid);
    gate.awaitEnd(requestId, grace);
    // The launcher reports the end of its leader; other members of the group may still run.
    if (!group.get().groupMayRun()) {
      return new Result(Outcome.SIGTERM, pgid);
    }
    gate.signalled(
        requestId,
        actor,
        "SIGKILL to process group " + pgid + ": it outlived SIGTERM by " + Durations.human(grace));
    GroupSignals.send("KILL", pgid);
    // SIGKILL cannot be ignored, but the group takes a moment to die: let the gate see it end, so
    // that the release does not report a group that is already dying as running.
    gate.awaitEnd(requestId, grace);
    return new Result(Outcome.SIGKILL, pgid);
  }

  /** What {@link #stop} did. */
  record Result(Outcome outcome, long pgid) {}
}
