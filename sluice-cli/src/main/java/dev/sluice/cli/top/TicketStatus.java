/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;

/**
 * The state and time cells of one request at one instant. What can end on its own counts down to it
 * (an offer to its expiry, a claimed permit to its start deadline, an untracked permit to the end
 * of its lease) and says when that text next changes; everything else shows since when it is in its
 * state, as local time, which never changes by itself.
 *
 * @param state the state cell: {@code running}, {@code claimed}, {@code offered}, {@code queued
 *     #2}, {@code paused}
 * @param tone the state cell's meaning
 * @param time the time cell: {@code expires in 12s}, {@code since 14:03:27}, {@code lapsed}
 * @param timeTone the time cell's meaning: {@link Tone#ALERT} once a deadline has passed
 * @param changesAt when the time cell next reads differently, or empty if only the gate changes it
 */
record TicketStatus(
    String state, Tone tone, String time, Tone timeTone, Optional<Instant> changesAt) {

  /** How the cells of {@code t} read at {@code now}. */
  static TicketStatus of(Ticket t, Instant now, ZoneId zone) {
    TicketState s = t.state();
    if (s == TicketState.OFFERED) {
      return countdown(
          "offered", Tone.OFFERED, "expires in ", "expired", t.offerExpiresAt(), t, now, zone);
    }
    if (s == TicketState.QUEUED) {
      String state = t.position() > 0 ? "queued #" + t.position() : "queued";
      return since(state, Tone.WAITING, t, zone);
    }
    if (s == TicketState.PAUSED) {
      return since("paused", Tone.IDLE, t, zone);
    }
    if (s != TicketState.HELD) {
      // Ended requests are not among a pool's; should one appear, it reads as what it is.
      return since(s.name().toLowerCase(Locale.ROOT), Tone.IDLE, t, zone);
    }
    if (t.phase() == PermitPhase.CLAIMED) {
      return countdown(
          "claimed",
          Tone.ACTIVE,
          "start within ",
          "start overdue",
          t.startDeadline(),
          t,
          now,
          zone);
    }
    if (t.phase() == PermitPhase.RUNNING_UNTRACKED) {
      return countdown(
          "running", Tone.ACTIVE, "lapses in ", "lapsed", t.leaseDeadline(), t, now, zone);
    }
    return since("running", Tone.ACTIVE, t, zone);
  }

  private static TicketStatus since(String state, Tone tone, Ticket t, ZoneId zone) {
    String time = t.since() == null ? "" : "since " + TimeText.clock(t.since(), zone);
    return new TicketStatus(state, tone, time, Tone.PLAIN, Optional.empty());
  }

  private static TicketStatus countdown(
      String state,
      Tone tone,
      String ahead,
      String passed,
      Instant deadline,
      Ticket t,
      Instant now,
      ZoneId zone) {
    if (deadline == null) {
      return since(state, tone, t, zone);
    }
    Optional<Instant> next = TimeText.nextChange(deadline, now);
    if (next.isEmpty()) {
      // The gate applies it with its next transaction, which the feed then brings.
      return new TicketStatus(state, tone, passed, Tone.ALERT, Optional.empty());
    }
    return new TicketStatus(state, tone, ahead + TimeText.left(deadline, now), tone, next);
  }
}
