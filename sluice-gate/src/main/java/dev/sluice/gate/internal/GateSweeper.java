/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.TicketState;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The gate's time-driven transitions: offers lapse, unstarted permits pass their start deadline,
 * untracked leases run out, ended requests and old events are pruned. A store runs {@link #tick} at
 * the start of every transaction and arms one timer for {@link #nextDeadline}.
 *
 * <p>Not thread-safe.
 */
public final class GateSweeper {
  static final String OFFER_EXPIRED = "offer_expired";
  static final String START_DEADLINE_PASSED = "start_deadline_passed";
  static final String LEASE_EXPIRED = "lease_expired";

  private final GateState s;
  private final Moves moves;

  /**
   * A sweeper over one state.
   *
   * @param state the state it changes
   */
  public GateSweeper(GateState state) {
    this.s = state;
    this.moves =
        new Moves(
            state,
            () -> {
              throw new IllegalStateException("sweeping mints no tokens");
            });
  }

  /**
   * Applies everything due at {@code now}.
   *
   * @return whether anything changed
   */
  public boolean tick(long now) {
    boolean changed = false;
    TreeSet<String> freed = new TreeSet<>();
    List<Entry> pruned = new ArrayList<>();
    long retention = s.settings.terminalRetention().toMillis();
    for (Entry e : List.copyOf(s.entries.values())) {
      if (e.state == TicketState.OFFERED && now >= e.offerExpiresAt) {
        e.enter(TicketState.PAUSED, now);
        e.endReason = OFFER_EXPIRED;
        s.event(now, OFFER_EXPIRED, e, "paused until rejoined");
        freed.add(e.pool);
        changed = true;
      } else if (e.state == TicketState.HELD && due(e, now) != null) {
        String why = due(e, now);
        s.event(now, "reclaimed", e, why);
        moves.finish(e, TicketState.RELEASED, why, now);
        changed = true;
      } else if (!e.state.isLive() && now >= e.since + retention) {
        pruned.add(e);
      }
    }
    for (Entry e : pruned) {
      s.entries.remove(e.id);
      for (String hash : e.tokenHashes) {
        s.tokens.remove(hash);
      }
      changed = true;
    }
    long oldest = now - s.settings.eventsMaxAge().toMillis();
    while (!s.events.isEmpty() && s.events.peekFirst().at().toEpochMilli() <= oldest) {
      s.events.removeFirst();
      changed = true;
    }
    for (String pool : freed) {
      moves.admit(pool, now);
    }
    return changed;
  }

  private static String due(Entry e, long now) {
    if (e.phase == PermitPhase.CLAIMED && now >= e.startDeadline) {
      return START_DEADLINE_PASSED;
    }
    if (e.phase == PermitPhase.RUNNING_UNTRACKED && now >= e.leaseDeadline) {
      return LEASE_EXPIRED;
    }
    return null;
  }

  /** The earliest time at which {@link #tick} will change something, if any. */
  public OptionalLong nextDeadline() {
    long next = Long.MAX_VALUE;
    long retention = s.settings.terminalRetention().toMillis();
    for (Entry e : s.entries.values()) {
      if (e.state == TicketState.OFFERED) {
        next = Math.min(next, e.offerExpiresAt);
      } else if (e.phase == PermitPhase.CLAIMED) {
        next = Math.min(next, e.startDeadline);
      } else if (e.phase == PermitPhase.RUNNING_UNTRACKED) {
        next = Math.min(next, e.leaseDeadline);
      } else if (!e.state.isLive()) {
        next = Math.min(next, e.since + retention);
      }
    }
    GateEvent first = s.events.peekFirst();
    if (first != null) {
      next = Math.min(next, first.at().toEpochMilli() + s.settings.eventsMaxAge().toMillis());
    }
    return next == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(next);
  }
}
