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
 * Stops a permit's process group, for {@code kill} and {@code force-release --kill}: a first signal
 * (SIGTERM unless {@code kill --signal} says otherwise) to the whole group, a wait of up to the
 * grace period for the permit to end (its launcher reports the end, or the gate sees the group
 * gone), then SIGKILL to whatever of the group still runs, recorded as a {@code signalled} event.
 *
 * <p>Not thread-safe: one invocation, one thread. {@link #signal} blocks up to twice the grace
 * period, sleeping in the gate's own wait (woken by its pulse or its re-check of a launcher-less
 * group).
 */
final class GroupKill {
  /** How long a group gets to end after the first signal before SIGKILL. */
  static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

  private GroupKill() {}

  /** How the group ended, as the answer and the event say it. */
  enum Outcome {
    /** The permit had no running process group: nothing was sent. */
    NOTHING_RUNNING,
    /** The first signal was enough: the group ended within the grace period. */
    FIRST_SIGNAL,
    /** The group outlived the grace period and got SIGKILL. */
    SIGKILL
  }

  /**
   * What {@link #signal} did.
   *
   * @param outcome how the group ended
   * @param pgid the group, 0 if nothing ran
   * @param first the signal sent first
   * @param grace the grace period it had
   */
  record Result(Outcome outcome, long pgid, KillSignal first, Duration grace) {
    static final Result NOTHING = new Result(Outcome.NOTHING_RUNNING, 0, KillSignal.TERM, null);

    /** The signal after which the group ended, for example {@code SIGTERM}; empty if none. */
    String endedBy() {
      return switch (outcome) {
        case NOTHING_RUNNING -> "";
        case FIRST_SIGNAL -> first.wireName();
        case SIGKILL -> KillSignal.KILL.wireName();
      };
    }

    /** How the text and the event say it, for example {@code killed pgid 42 (SIGTERM)}. */
    String describe() {
      return switch (outcome) {
        case NOTHING_RUNNING -> "";
        case FIRST_SIGNAL -> "killed pgid " + pgid + " (" + first.wireName() + ")";
        case SIGKILL ->
            "killed pgid "
                + pgid
                + " ("
                + first.wireName()
                + ", then SIGKILL after "
                + Durations.human(grace)
                + ")";
      };
    }
  }

  /**
   * Stops the process group of a held, tracked permit with SIGTERM, then SIGKILL; the SIGTERM is
   * recorded as a {@code signalled} event.
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
      return Result.NOTHING;
    }
    gate.signalled(requestId, actor, "SIGTERM to process group " + group.get().pgid());
    return signal(gate, requestId, actor, group.get(), KillSignal.TERM, grace);
  }

  /**
   * Sends {@code first} to the group of {@code group} (the caller recorded it), waits up to {@code
   * grace} for the permit to end, then sends SIGKILL to what is left of the group, recorded as a
   * {@code signalled} event, and waits up to {@code grace} again for the gate to see it end.
   *
   * @throws InterruptedException if interrupted while waiting (the first signal was sent)
   */
  static Result signal(
      GateService gate,
      String requestId,
      String actor,
      ProcessRef group,
      KillSignal first,
      Duration grace)
      throws InterruptedException {
    long pgid = group.pgid();
    GroupSignals.send(first.name(), pgid);
    if (first != KillSignal.KILL) {
      // As a shell's kill of a stopped job: a group stopped by Ctrl-Z gets the signal only once
      // it runs again. A running group ignores SIGCONT.
      GroupSignals.send("CONT", pgid);
    }
    gate.awaitEnd(requestId, grace);
    // The launcher reports the end of its leader; other members of the group may still run.
    if (first == KillSignal.KILL || !group.groupMayRun()) {
      return new Result(Outcome.FIRST_SIGNAL, pgid, first, grace);
    }
    gate.signalled(
        requestId,
        actor,
        "SIGKILL to process group "
            + pgid
            + ": it outlived "
            + first.wireName()
            + " by "
            + Durations.human(grace));
    GroupSignals.send(KillSignal.KILL.name(), pgid);
    // SIGKILL cannot be ignored, but the group takes a moment to die: let the gate see it end, so
    // that the release does not report a group that is already dying as running.
    gate.awaitEnd(requestId, grace);
    return new Result(Outcome.SIGKILL, pgid, first, grace);
  }
}
