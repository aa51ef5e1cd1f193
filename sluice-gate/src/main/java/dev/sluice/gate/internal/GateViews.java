/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.Pending;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Read models of the gate: pool status, an agent's pending requests, single requests. {@link
 * #pending} mints tokens and so changes the state; the others only read.
 *
 * <p>Not thread-safe.
 */
public final class GateViews {
  private final GateState s;
  private final Moves moves;

  /**
   * Views of one state.
   *
   * @param state the state
   * @param mint where tokens revealed by {@link #pending} come from
   */
  public GateViews(GateState state, TokenMint mint) {
    this.s = state;
    this.moves = new Moves(state, mint);
  }

  /** Every pool, by name. */
  public List<PoolStatus> status() {
    List<PoolStatus> out = new ArrayList<>();
    for (PoolRecord p : s.pools.values()) {
      out.add(status(p));
    }
    return out;
  }

  /** One pool, if it exists. */
  public Optional<PoolStatus> status(String pool) {
    PoolRecord p = s.pools.get(pool);
    return p == null ? Optional.empty() : Optional.of(status(p));
  }

  private PoolStatus status(PoolRecord p) {
    List<Ticket> queued = new ArrayList<>();
    for (String id : p.queue) {
      queued.add(s.snapshot(s.entries.get(id)));
    }
    List<Ticket> holders = new ArrayList<>();
    List<Ticket> offers = new ArrayList<>();
    List<Ticket> paused = new ArrayList<>();
    for (Entry e : s.entries.values()) {
      if (!e.pool.equals(p.name)) {
        continue;
      }
      switch (e.state) {
        case HELD -> holders.add(s.snapshot(e));
        case OFFERED -> offers.add(s.snapshot(e));
        case PAUSED -> paused.add(s.snapshot(e));
        default -> {}
      }
    }
    return new PoolStatus(p.name, p.capacity, s.used(p.name), queued, holders, offers, paused);
  }

  /** A request by id, live or ended within the retention. */
  public Optional<Ticket> ticket(String requestId) {
    Entry e = s.entries.get(requestId);
    return e == null ? Optional.empty() : Optional.of(s.snapshot(e));
  }

  /** An agent's live requests, without tokens, oldest first. */
  public List<Ticket> live(String agentId) {
    List<Ticket> out = new ArrayList<>();
    for (Entry e : s.entries.values()) {
      if (e.agentId.equals(agentId) && e.state.isLive()) {
        out.add(s.snapshot(e));
      }
    }
    return out;
  }

  /** An agent's live requests, with fresh tokens for offers and permits. */
  public Pending pending(String agentId) {
    List<AcquireOutcome.Offered> offers = new ArrayList<>();
    List<AcquireOutcome.Queued> queued = new ArrayList<>();
    List<AcquireOutcome.Paused> paused = new ArrayList<>();
    List<AcquireOutcome.Granted> held = new ArrayList<>();
    for (Entry e : s.entries.values()) {
      if (!e.agentId.equals(agentId) || !e.state.isLive()) {
        continue;
      }
      AcquireOutcome answer = moves.answer(e);
      if (answer instanceof AcquireOutcome.Offered o) {
        offers.add(o);
      } else if (answer instanceof AcquireOutcome.Queued q) {
        queued.add(q);
      } else if (answer instanceof AcquireOutcome.Paused p) {
        paused.add(p);
      } else if (answer instanceof AcquireOutcome.Granted g) {
        held.add(g);
      }
    }
    return new Pending(offers, queued, paused, held);
  }
}
