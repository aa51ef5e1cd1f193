/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Local hand-offs ({@link dev.sluice.LimiterConfig#localHandOffs()}): this JVM's side of a pool
 * whose units may be passed from request to request inside one JVM.
 *
 * <p>Two rules, so that a busy JVM touches the store once per grant rather than once per request:
 *
 * <ul>
 *   <li><b>One request at the pool.</b> The JVM keeps at most one waiting request in the pool's
 *       queue (the <i>representative</i>): its earliest one when it was sent. Later requests are
 *       held here and sent one at a time, in the order they were made, whenever the JVM has none
 *       waiting at the pool. A request that must not wait ({@code tryAcquire}) is sent at once.
 *   <li><b>Passes.</b> A unit released here goes to the earliest held request, or if none is held,
 *       to the representative, until the unit's grant has served its quota; then it goes back to
 *       the pool. A unit whose weight differs from that request's goes back rather than skip it.
 *   <li><b>Attempts stay out.</b> An attempt of a managed execution is never held here nor passed a
 *       unit, and its unit is never passed on: its acquire always reaches the store, which records
 *       its operation for drains and knows its lease as the attempt's.
 * </ul>
 *
 * <p>The store keeps the unit's lease as granted and never learns of a pass: the lease keeps the
 * unit counted, a dead JVM's lease is reclaimed whoever used it last, and the grant reserved the
 * fencing tokens the passes use ({@link PoolMachine#grant}). A pass to the representative takes it
 * out of the pool's queue with a withdrawal, which also gives back a grant that raced the pass.
 *
 * <p>Thread-safe; nothing here blocks on the store.
 */
final class HandOffs {
  private final int quota;
  private final Supplier<String> owner;
  private final TimeSource clock;

  /** Requests not sent to the store: they wait for a pass or for their turn at the pool. */
  private final ConcurrentSkipListMap<Long, Ticket> held = new ConcurrentSkipListMap<>();

  /** Sent requests that may still be passed a unit, with a clean-up in the store. */
  private final ConcurrentSkipListMap<Long, Ticket> sent = new ConcurrentSkipListMap<>();

  /** For each lease passed on at least once: the last fencing token its grant reserved. */
  private final Map<Long, Long> lastToken = new ConcurrentHashMap<>();

  /** The request this JVM last sent to wait at the pool; guarded by this. */
  private Ticket representative;

  HandOffs(int quota, Supplier<String> owner, TimeSource clock) {
    this.quota = quota;
    this.owner = owner;
    this.clock = clock;
  }

  boolean enabled() {
    return quota > 0;
  }

  /**
   * Decides whether a new request waits here or is sent now.
   *
   * @return true if it is held (or was withdrawn before it got here); false if the caller must send
   *     it now
   */
  synchronized boolean hold(Ticket t) {
    if (t.state() != TicketState.PENDING) {
      // Withdrawn on its way here, and already over: announcing it would put QUEUED after the end.
      return true;
    }
    if (atThePool(representative) || !held.isEmpty()) {
      // Announced before any pass can reach it, so its events keep their order.
      t.heldInJvm();
      held.put(t.ref, t);
      return true;
    }
    representative = t;
    return false;
  }

  /** The next held request to send, or null while this JVM still has one waiting at the pool. */
  synchronized Ticket nextToSend() {
    if (atThePool(representative)) {
      return null;
    }
    Map.Entry<Long, Ticket> e;
    while ((e = held.pollFirstEntry()) != null) {
      // A closing limiter withdraws its waiting requests: sending one would only cost a withdrawal.
      if (e.getValue().state() == TicketState.PENDING
          && !e.getValue().limiter.lifecycle().closing()) {
        representative = e.getValue();
        return representative;
      }
    }
    representative = null;
    return null;
  }

  private static boolean atThePool(Ticket t) {
    if (t == null) {
      return false;
    }
    return t.state().waiting();
  }

  /** Makes a sent request a candidate for passes; one with a lease lifetime is not. */
  void sent(Ticket t) {
    if (quota > 0 && t.lifetime < 0) {
      sent.put(t.ref, t);
    }
  }

  /** Forgets a request that was granted, dropped or withdrawn. */
  void left(long ref) {
    if (quota > 0) {
      held.remove(ref);
      sent.remove(ref);
    }
  }

  /** The requests held here, for a store failure to withdraw. */
  List<Ticket> heldRequests() {
    return new ArrayList<>(held.values());
  }

  /**
   * Passes a released unit to the earliest held request, else to a sent one, if the unit's grant
   * has passes left.
   *
   * @param unit the lease being released
   * @param cleanup sends the store withdrawal of a sent request that took a unit
   * @return true if a request took the unit; false if it must go back to the pool
   */
  boolean pass(LeaseRecord unit, Consumer<Ticket> cleanup) {
    if (quota == 0 || unit.expiresAt() != PoolState.NEVER) {
      return false;
    }
    if (held.isEmpty() && sent.isEmpty()) {
      return false;
    }
    long last = lastToken.computeIfAbsent(unit.id(), id -> unit.fencingToken() + quota);
    long token = unit.fencingToken() + 1;
    if (token > last) {
      return false;
    }
    Boolean done = passTo(held, unit, token, cleanup);
    if (done == null) {
      done = passTo(sent, unit, token, cleanup);
    }
    return done != null && done;
  }

  /**
   * Tries the requests of {@code from} in order.
   *
   * @return true if one took the unit; false if the earliest one's weight differs; null if none
   *     could take it
   */
  private Boolean passTo(
      ConcurrentSkipListMap<Long, Ticket> from,
      LeaseRecord unit,
      long token,
      Consumer<Ticket> cleanup) {
    Map.Entry<Long, Ticket> first;
    while ((first = from.firstEntry()) != null) {
      Ticket t = first.getValue();
      if (!t.state().waiting()) {
        from.remove(first.getKey(), t);
        continue;
      }
      if (t.weight != unit.weight() || t.lifetime >= 0) {
        // The earliest request keeps its place: the unit goes back rather than skip it.
        return false;
      }
      LeaseRecord passed =
          new LeaseRecord(
              unit.id(),
              owner.get(),
              t.ref,
              unit.weight(),
              clock.wallMillis(),
              PoolState.NEVER,
              token);
      HandOffResult how = t.handOff(passed);
      from.remove(first.getKey(), t);
      if (how == HandOffResult.NOT_HANDED_OFF) {
        continue;
      }
      if (how == HandOffResult.HANDED_OFF_CLEANUP) {
        // Before the grant is delivered, so whoever sees it started sees the queue without it.
        cleanup.accept(t);
        t.deliverPass();
      } else {
        t.onGranted();
      }
      return true;
    }
    return null;
  }

  /** Forgets a unit that goes back to the pool. */
  void returned(long leaseId) {
    if (quota > 0) {
      lastToken.remove(leaseId);
    }
  }

  /** Forgets everything, when the owner retires. */
  synchronized void clear() {
    held.clear();
    sent.clear();
    lastToken.clear();
    representative = null;
  }
}
