/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static dev.sluice.spi.PoolState.NEVER;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * The limiter algorithm: admission, the FIFO queue, spacing, the reservoir and its refill, lease
 * expiry and the reclaim of dead owners, as functions of a {@link PoolState} and the store's time.
 * No I/O, no clock, no threads: every store runs exactly this code.
 *
 * <p>Every operation starts with {@link #settle}, which brings the state up to {@code now}
 * (reclaims, expiries, refill, queue deadlines), and ends with {@link #pump}, which grants the head
 * waiters that now fit. Checks that can refuse an operation run before anything is changed, so a
 * refused operation leaves the state as it was.
 */
final class PoolMachine {
  private PoolMachine() {}

  /** Brings the state up to {@code now}. */
  static void settle(PoolState s, PoolContext ctx, Effects fx) {
    long now = ctx.now();
    if (!ctx.deadOwners().isEmpty()) {
      reclaim(s, ctx, fx);
    }
    if (now >= s.earliestExpiry()) {
      s.removeExpiredLeases(
          now,
          l -> s.trace().add(TraceEvent.Kind.EXPIRED, l.id(), l.owner(), s.activeWeight(), now));
    }
    refill(s, now);
    if (s.hasWaiters()) {
      dropTimedOut(s, now, fx);
    }
    ControlRules.settle(s, now);
  }

  private static void reclaim(PoolState s, PoolContext ctx, Effects fx) {
    long now = ctx.now();
    // Work a dead owner had begun may or may not have taken effect: a drain must hear of it.
    OperationRules.ownersDied(s, ctx.deadOwners());
    List<LeaseRecord> dead = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      if (ctx.deadOwners().contains(l.owner())) {
        dead.add(l);
      }
    }
    for (LeaseRecord l : dead) {
      s.removeLease(l.id());
      s.trace().add(TraceEvent.Kind.RECLAIMED, l.id(), l.owner(), s.activeWeight(), now);
      if (!l.attempt() && s.controlCore().drain().draining()) {
        // No operation record stands for this work (an attempt's record just became unconfirmed).
        OperationRules.implicitLost(s, l);
      }
    }
    for (Iterator<WaiterRecord> it = s.waiterIterator(); it.hasNext(); ) {
      WaiterRecord w = it.next();
      if (ctx.deadOwners().contains(w.owner())) {
        it.remove();
        s.trace().add(TraceEvent.Kind.RECLAIMED, w.id(), w.owner(), s.activeWeight(), now);
        fx.ended(EndedRequest.of(w, EndedRequest.Reason.RECLAIMED));
      }
    }
  }

  /** Resets the reservoir at each creation-anchored boundary passed; missed windows collapse. */
  static void refill(PoolState s, long now) {
    long due = s.nextRefreshAt();
    if (now < due) {
      return;
    }
    LimiterConfig c = s.config();
    long interval = c.refreshIntervalMillisRaw();
    long windowsPassed = (now - due) / interval + 1;
    s.nextRefreshAt(due + windowsPassed * interval);
    long amount = c.refreshAmountRaw();
    if (!s.reservoirLimited() || s.reservoir() != amount) {
      s.reservoir(amount);
      s.trace().add(TraceEvent.Kind.REFRESHED, 0, "", s.activeWeight(), now);
    }
  }

  private static void dropTimedOut(PoolState s, long now, Effects fx) {
    for (Iterator<WaiterRecord> it = s.waiterIterator(); it.hasNext(); ) {
      WaiterRecord w = it.next();
      if (w.queueDeadline() <= now) {
        it.remove();
        s.trace().add(TraceEvent.Kind.TIMED_OUT, w.id(), w.owner(), s.activeWeight(), now);
        fx.ended(EndedRequest.of(w, EndedRequest.Reason.TIMED_OUT));
      }
    }
  }

  /** Whether the sum of held weight and {@code weight} would pass {@code Long.MAX_VALUE}. */
  static boolean overflows(PoolState s, long weight) {
    return s.activeWeight() > Long.MAX_VALUE - weight;
  }

  /** Whether a request of {@code weight} fits capacity, spacing and reservoir at {@code now}. */
  static boolean admissible(PoolState s, long weight, long now) {
    long cap = s.config().maxConcurrentRaw();
    if (cap >= 0 ? s.activeWeight() > cap - weight : overflows(s, weight)) {
      return false;
    }
    if (now < s.nextAllowedAt() || ControlRules.blocks(s, now)) {
      return false;
    }
    return !s.reservoirLimited() || s.reservoir() >= weight;
  }

  /** Writes a lease and spends its tokens and spacing slot; the caller checked admissibility. */
  static LeaseRecord grant(
      PoolState s,
      long id,
      String owner,
      long ownerRef,
      long weight,
      long lifetime,
      boolean attempt,
      long now) {
    long expiresAt = lifetime < 0 ? NEVER : saturatedAdd(now, lifetime);
    LeaseRecord lease =
        new LeaseRecord(id, owner, ownerRef, weight, now, expiresAt, s.nextFencingToken(), attempt);
    s.putLease(lease);
    int handOffs = s.config().localHandOffs();
    if (handOffs > 0 && expiresAt == NEVER) {
      // The JVM that holds the unit may pass it on this many times, each with a token of its own.
      s.raiseFencingFloor(lease.fencingToken() + handOffs);
    }
    if (s.reservoirLimited()) {
      s.reservoir(s.reservoir() - weight);
    }
    long minTime = s.config().minTimeMillis();
    if (minTime > 0) {
      s.nextAllowedAt(now + minTime);
    }
    s.trace().add(TraceEvent.Kind.ADMITTED, id, owner, s.activeWeight(), now);
    ControlRules.granted(s, lease, now);
    return lease;
  }

  /**
   * Gives back what a grant spent, for a grant withdrawn before its callback started: its tokens,
   * unless a refill has reset the balance since (or the pool has no configured reservoir, so the
   * balance may not have been finite then), and its spacing slot, if no admission came after it.
   * Capacity is returned by removing the lease; the fencing token stays used.
   */
  static void unspend(PoolState s, LeaseRecord l) {
    LimiterConfig c = s.config();
    boolean configuredReservoir = c.reservoirRaw() >= 0 || c.refreshAmountRaw() >= 0;
    boolean sameWindow =
        s.nextRefreshAt() == NEVER
            || l.grantedAt() >= s.nextRefreshAt() - c.refreshIntervalMillisRaw();
    if (configuredReservoir && s.reservoirLimited() && sameWindow) {
      s.reservoir(saturatedAdd(s.reservoir(), l.weight()));
    }
    long minTime = c.minTimeMillis();
    // A later admission would have moved nextAllowedAt past grantedAt + minTime.
    if (minTime > 0 && s.nextAllowedAt() == l.grantedAt() + minTime) {
      s.nextAllowedAt(l.grantedAt());
    }
  }

  /** Grants head waiters while the head fits; a heavy head is never overtaken. */
  static void pump(PoolState s, long now, Effects fx) {
    while (s.hasWaiters()) {
      WaiterRecord head = s.headWaiter();
      if (!admissible(s, head.weight(), now)) {
        return;
      }
      s.removeWaiter(head.id());
      fx.granted(
          grant(
              s,
              head.id(),
              head.owner(),
              head.ownerRef(),
              head.weight(),
              head.leaseLifetime(),
              head.attempt(),
              now));
    }
  }

  /**
   * The next store time at which the head waiter could be admitted by time alone, or {@link
   * PoolState#NEVER}: nothing to wait for while nobody waits, and no wake-up for a refill too small
   * to admit the head.
   */
  static long nextDeadline(PoolState s, long now) {
    WaiterRecord head = s.headWaiter();
    if (head == null) {
      return NEVER;
    }
    long weight = head.weight();
    long admitAt = Math.max(now, s.nextAllowedAt());
    if (ControlRules.blocks(s, now)) {
      // The cooldown's end, the open pause's end, or the running probe's timeout.
      admitAt = Math.max(admitAt, ControlRules.unblockedAt(s, now));
    }
    long cap = s.config().maxConcurrentRaw();
    if (cap >= 0 && s.activeWeight() > cap - weight) {
      admitAt = Math.max(admitAt, capacityFreedAt(s, s.activeWeight() + weight - cap));
    } else if (cap < 0 && overflows(s, weight)) {
      // Unlimited, but the sum would overflow: wait for leases to expire, never spin.
      admitAt = Math.max(admitAt, capacityFreedAt(s, weight - (Long.MAX_VALUE - s.activeWeight())));
    }
    if (s.reservoirLimited() && s.reservoir() < weight) {
      boolean refillHelps = s.config().refreshAmountRaw() >= weight;
      admitAt = Math.max(admitAt, refillHelps ? s.nextRefreshAt() : NEVER);
    }
    // No wake-up for the head's queue deadline: its owner withdraws it on its own timer, a dead
    // owner's entries are reclaimed, and any transition drops an entry found past its deadline.
    return admitAt;
  }

  /** When enough expiring leases will have expired to free {@code needed} weight, or never. */
  private static long capacityFreedAt(PoolState s, long needed) {
    if (s.earliestExpiry() == NEVER) {
      return NEVER;
    }
    List<LeaseRecord> expiring = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      if (l.expiresAt() != NEVER) {
        expiring.add(l);
      }
    }
    expiring.sort(Comparator.comparingLong(LeaseRecord::expiresAt));
    long freed = 0;
    for (LeaseRecord l : expiring) {
      freed += l.weight();
      if (freed >= needed) {
        return l.expiresAt();
      }
    }
    return NEVER;
  }

  static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? NEVER : r;
  }
}
