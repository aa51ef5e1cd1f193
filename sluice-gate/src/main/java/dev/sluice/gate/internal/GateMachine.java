/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.CapacityChange;
import dev.sluice.gate.GateException;
import dev.sluice.gate.Permit;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The gate's request transitions: acquire, claim, decline, rejoin, cancel and capacity changes.
 * Pure functions of the state, the arguments and {@code now} (store milliseconds); tokens come from
 * the injected {@link TokenMint}. A refused operation throws {@link GateException} before it
 * changes anything.
 *
 * <p>Not thread-safe: a store applies one transition at a time, after {@link GateSweeper#tick}.
 */
public final class GateMachine {
  private final GateState s;
  private final Moves moves;
  private final PoolRules pools;

  /**
   * A machine over one state.
   *
   * @param state the state it changes
   * @param mint where new tokens come from
   */
  public GateMachine(GateState state, TokenMint mint) {
    this.s = state;
    this.moves = new Moves(state, mint);
    this.pools = new PoolRules(state);
  }

  /**
   * Asks for capacity. Idempotent per agent and operation key while the gate keeps the request:
   * asking again answers its current state (with a fresh token where it has one), or a conflict if
   * the pool or weight differ or its permit was released (the conflict names the request and its
   * end), or {@code cancelled} if {@code cancel} withdrew it. A request that never held a slot and
   * that nobody cancelled (a queue timeout, a waiting process that died, a failure) leaves the key
   * free. A new request is granted at once when its pool's queue is empty and it fits, and queued
   * at the tail otherwise.
   *
   * @throws GateException {@code weight_exceeds_capacity}
   */
  public AcquireOutcome acquire(AcquireRequest r, long now) {
    return acquire(r, "", now);
  }

  /**
   * Like {@link #acquire(AcquireRequest, long)}, for a request that lives only while the process
   * registered as {@code owner} does (a {@code sluice run} waiting for capacity).
   */
  public AcquireOutcome acquire(AcquireRequest r, String owner, long now) {
    String liveId = s.liveByKey.get(GateState.key(r.agentId(), r.opKey()));
    if (liveId != null) {
      Permits.touch(s, r.agentId(), now);
      Entry e = s.entries.get(liveId);
      if (!e.pool.equals(r.pool()) || e.weight != r.weight()) {
        return new AcquireOutcome.Conflict(
            s.snapshot(e),
            "operation key '"
                + r.opKey()
                + "' of agent '"
                + r.agentId()
                + "' already names request "
                + e.id
                + " (pool "
                + e.pool
                + ", weight "
                + e.weight
                + ")");
      }
      return moves.answer(e);
    }
    Entry spent = moves.spentUnder(r.agentId(), r.opKey());
    if (spent != null && spent.state == TicketState.CANCELLED) {
      throw Moves.ended(spent, "acquire");
    }
    if (spent != null) {
      // Asking again is a retry of the same operation: its answer is the request it made.
      return new AcquireOutcome.Conflict(s.snapshot(spent), spentDetail(r, spent));
    }
    pools.requireUsable(r.pool());
    pools.requireFits(r.pool(), r.weight());
    // Leases are extended only once nothing can refuse the call: a refusal changes nothing.
    Permits.touch(s, r.agentId(), now);
    PoolRecord pool = s.pool(r.pool());
    Entry e =
        new Entry(
            "r" + s.nextRequest++,
            r.pool(),
            r.agentId(),
            r.opKey(),
            r.label(),
            r.reason(),
            r.weight(),
            now);
    e.owner = owner;
    s.entries.put(e.id, e);
    s.liveByKey.put(GateState.key(e.agentId, e.opKey), e.id);
    if (pool.queue.isEmpty() && s.used(pool.name) + e.weight <= pool.capacity) {
      e.round++;
      moves.hold(e, now);
      s.event(now, "granted", e, "weight " + e.weight);
    } else {
      e.enter(TicketState.QUEUED, now);
      pool.queue.addLast(e.id);
      s.event(now, "queued", e, "weight " + e.weight + ", position " + pool.queue.size());
      moves.admit(pool.name, now);
    }
    return moves.answer(e);
  }

  private static String spentDetail(AcquireRequest r, Entry e) {
    return "operation key '"
        + r.opKey()
        + "' of agent '"
        + r.agentId()
        + "' already named request "
        + e.id
        + ", which ended "
        + e.state.name().toLowerCase(java.util.Locale.ROOT)
        + (e.endReason.isEmpty() ? "" : " (" + e.endReason + ")")
        + "; ask with another --op for new work";
  }

  /**
   * Refuses, without changing anything, a new request that {@link #acquire} would refuse for its
   * pool: one never set up, or one whose capacity is below the weight. {@code sluice submit} asks
   * this before it starts the process that will queue the job.
   *
   * @throws GateException {@code unknown_pool} or {@code weight_exceeds_capacity}
   */
  public void checkPool(AcquireRequest r) {
    pools.requireUsable(r.pool());
    pools.requireFits(r.pool(), r.weight());
  }

  /**
   * Claims an offer: the request holds a permit whose work must start before the start deadline.
   * Claiming again with the same offer token while the permit lives answers the permit again.
   *
   * @throws GateException {@code unknown_token}, {@code stale_token}, {@code offer_expired} or
   *     {@code wrong_state}
   */
  public Permit claim(String offerToken, long now) {
    Entry e = moves.byToken(offerToken, TokenRecord.Kind.OFFER, "claim");
    if (e.state == TicketState.OFFERED) {
      moves.hold(e, now);
      s.event(now, "claimed", e, "");
    } else if (e.state == TicketState.PAUSED && e.endReason.equals(GateSweeper.OFFER_EXPIRED)) {
      throw new GateException(
          GateException.Code.OFFER_EXPIRED,
          "request " + e.id + ": the offer expired before the claim; rejoin to queue again");
    } else if (e.state != TicketState.HELD) {
      throw Moves.ended(e, "claim");
    }
    Permits.touch(s, e.agentId, now);
    return new Permit(s.snapshot(e), moves.mint(e, TokenRecord.Kind.PERMIT));
  }

  /**
   * Declines an offer: its capacity passes to the next waiter and the request is paused until its
   * agent rejoins. Idempotent.
   *
   * @throws GateException {@code unknown_token}, {@code stale_token} or {@code wrong_state}
   */
  public Ticket decline(String offerToken, long now) {
    Entry e = moves.byToken(offerToken, TokenRecord.Kind.OFFER, "decline");
    if (e.state == TicketState.OFFERED) {
      e.enter(TicketState.PAUSED, now);
      e.endReason = "declined";
      s.event(now, "declined", e, "");
      moves.admit(e.pool, now);
    } else if (!(e.state == TicketState.PAUSED && e.endReason.equals("declined"))) {
      throw Moves.ended(e, "decline");
    }
    Permits.touch(s, e.agentId, now);
    return s.snapshot(e);
  }

  /**
   * Puts a paused request back at the tail of its queue; a request already queued, offered or held
   * is answered as it stands.
   *
   * @throws GateException {@code unknown_request}, {@code not_owner} or {@code wrong_state}
   */
  public AcquireOutcome rejoin(String agentId, String requestId, long now) {
    Entry e = moves.byId(requestId, agentId);
    if (!e.state.isLive()) {
      throw Moves.ended(e, "rejoin");
    }
    Permits.touch(s, agentId, now);
    if (e.state == TicketState.PAUSED) {
      e.enter(TicketState.QUEUED, now);
      e.endReason = "";
      PoolRecord pool = s.pool(e.pool);
      pool.queue.addLast(e.id);
      s.event(now, "rejoined", e, "position " + pool.queue.size());
      moves.admit(e.pool, now);
    }
    return moves.answer(e);
  }

  /**
   * Withdraws a queued, offered or paused request as its own agent; see {@link #cancel(String,
   * String, String, long)}.
   */
  public Ticket cancel(String agentId, String requestId, long now) {
    return cancel(agentId, requestId, agentId, now);
  }

  /**
   * Withdraws a queued, offered or paused request; idempotent once it is cancelled. The request's
   * operation key is spent: whoever waits on it (a {@code sluice run}, an {@code acquire --wait})
   * is told it was cancelled, and asking again under that key answers {@code cancelled} until the
   * request is pruned, instead of quietly queueing a new request at the tail.
   *
   * @param by who cancels, as people read it (for example {@code alice (pid 4242)})
   * @throws GateException {@code unknown_request}, {@code not_owner} or {@code wrong_state} (a held
   *     permit is released, not cancelled)
   */
  public Ticket cancel(String agentId, String requestId, String by, long now) {
    AcquireRequest.text("by", by, 1, 200);
    Entry e = moves.byId(requestId, agentId);
    if (waiting(e)) {
      String was = e.state.name().toLowerCase(java.util.Locale.ROOT);
      s.event(now, "cancelled", e, "by " + by + ", was " + was);
      moves.finish(e, TicketState.CANCELLED, Moves.CANCELLED_BY + by + " while " + was, now);
    } else if (e.state == TicketState.HELD) {
      // Cancel never destroys work: a job that started between a look and the cancel runs on.
      throw new GateException(
          GateException.Code.WRONG_STATE,
          "request "
              + e.id
              + " already holds its slot"
              + (e.process == null ? "" : " and runs (process group " + e.process.pgid() + ")")
              + "; cancel withdraws only a waiting request: stop a running one with sluice kill "
              + e.id);
    } else if (e.state != TicketState.CANCELLED) {
      throw Moves.ended(e, "cancel");
    }
    Permits.touch(s, agentId, now);
    return s.snapshot(e);
  }

  /**
   * Takes back a request its own waiter gives up on (a queue timeout, an interrupted wait). Unlike
   * {@link #cancel}, the operation key stays free, and the event says why.
   *
   * @param why the end reason, for example {@code queue_timeout}
   * @return whether a waiting request was withdrawn
   */
  public boolean withdraw(String agentId, String requestId, String why, long now) {
    Entry e = s.entries.get(requestId);
    if (e == null || !e.agentId.equals(agentId) || !waiting(e)) {
      return false;
    }
    s.event(
        now, "withdrawn", e, why + ", was " + e.state.name().toLowerCase(java.util.Locale.ROOT));
    moves.finish(e, TicketState.CANCELLED, why, now);
    return true;
  }

  private static boolean waiting(Entry e) {
    return e.state == TicketState.QUEUED
        || e.state == TicketState.OFFERED
        || e.state == TicketState.PAUSED;
  }

  /**
   * Changes a pool's capacity and records who did it. Nothing is preempted: holders and offers keep
   * their weight even above a lower capacity. Queued and paused requests heavier than the new
   * capacity fail with {@code weight_exceeds_capacity}; the queue then moves.
   *
   * @param pool the pool, created if new; setting the capacity it has changes nothing
   * @param capacity the new capacity, 1 to {@value AcquireRequest#MAX_WEIGHT}
   * @param actor who changes it
   * @param reason why, possibly empty
   * @param now store time
   * @return the history entry
   */
  public CapacityChange setCapacity(
      String pool, int capacity, String actor, String reason, long now) {
    AcquireRequest.poolName(pool);
    AcquireRequest.text("actor", actor, 1, 128);
    AcquireRequest.text("reason", reason, 0, 500);
    if (capacity < 1 || capacity > AcquireRequest.MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "capacity must be between 1 and " + AcquireRequest.MAX_WEIGHT + ", was " + capacity);
    }
    boolean exists = s.pools.containsKey(pool);
    PoolRecord p = s.pool(pool);
    // A new pool had no capacity before: its history starts at 0, never at the default.
    CapacityChange change =
        new CapacityChange(
            Instant.ofEpochMilli(now), pool, actor, exists ? p.capacity : 0, capacity, reason);
    if (exists && p.capacity == capacity) {
      // Nothing changes: no history entry, no event, and the queue cannot move because of it.
      return change;
    }
    s.history.add(change);
    p.capacity = capacity;
    String detail =
        exists ? change.oldCapacity() + " -> " + capacity : "new pool, capacity " + capacity;
    s.event(now, "capacity_changed", pool, "", actor, detail);
    List<Entry> tooHeavy = new ArrayList<>();
    for (Entry e : s.entries.values()) {
      if (e.pool.equals(pool)
          && e.weight > capacity
          && (e.state == TicketState.QUEUED || e.state == TicketState.PAUSED)) {
        tooHeavy.add(e);
      }
    }
    for (Entry e : tooHeavy) {
      s.event(now, "failed", e, "weight_exceeds_capacity " + capacity);
      moves.finish(e, TicketState.FAILED, "weight_exceeds_capacity", now);
    }
    moves.admit(pool, now);
    return change;
  }

  /**
   * Removes a pool that holds and waits for nothing; a request for it is then refused as for any
   * pool never set up (the default pool is made again by its next request).
   *
   * @return the removed pool's capacity
   * @throws GateException {@code unknown_pool}, or {@code pool_busy} while it has holders, offers,
   *     queued or paused requests
   */
  public int removePool(String pool, String actor, String reason, long now) {
    return pools.remove(pool, actor, reason, now);
  }
}
