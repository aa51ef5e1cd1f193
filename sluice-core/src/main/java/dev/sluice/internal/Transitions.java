/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.TraceEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.Transition;
import dev.sluice.spi.TransitionContext;
import dev.sluice.spi.WaiterRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The operations a limiter sends to its store, each a {@link Transition} built on {@link
 * PoolMachine}: settle, do the operation, grant the waiters that now fit, and report the next
 * deadline.
 */
final class Transitions {
  private Transitions() {}

  private interface Body<T> {
    T apply(PoolState s, long now, Effects fx);
  }

  private static <T> Transition<Applied<T>> transition(Body<T> body) {
    return transition(true, body);
  }

  /**
   * Settles, grants what now fits (if {@code pumpFirst}), applies the body, grants again. A body
   * that takes a waiter out must run before the first grant, or it could be granted and spend.
   */
  private static <T> Transition<Applied<T>> transition(boolean pumpFirst, Body<T> body) {
    return (PoolState s, TransitionContext ctx) -> {
      Effects fx = new Effects();
      long now = ctx.now();
      PoolMachine.settle(s, ctx, fx);
      if (pumpFirst) {
        PoolMachine.pump(s, now, fx);
      }
      T value = body.apply(s, now, fx);
      PoolMachine.pump(s, now, fx);
      return new Applied<>(value, fx.grants(), fx.dropped(), PoolMachine.nextDeadline(s, now));
    };
  }

  /**
   * Admits a request at once if nobody waits and it fits; otherwise queues it, unless {@code
   * queueWaitMillis} is 0 (refuse) — {@code -1} waits without a deadline.
   */
  static Transition<Applied<AcquireResult>> acquire(
      String owner, long ownerRef, long weight, long lifetime, long queueWaitMillis) {
    return transition(
        (s, now, fx) -> {
          if (s.config().maxConcurrentRaw() < 0 && PoolMachine.overflows(s, weight)) {
            return new AcquireResult.Overflow(s.activeWeight(), weight);
          }
          if (!s.hasWaiters() && PoolMachine.admissible(s, weight, now)) {
            return new AcquireResult.Granted(
                PoolMachine.grant(s, s.nextEntryId(), owner, ownerRef, weight, lifetime, now));
          }
          if (queueWaitMillis == 0) {
            return new AcquireResult.Refused();
          }
          long deadline =
              queueWaitMillis < 0
                  ? PoolState.NEVER
                  : PoolMachine.saturatedAdd(now, queueWaitMillis);
          long id = s.nextEntryId();
          s.addWaiter(new WaiterRecord(id, owner, ownerRef, weight, now, deadline, lifetime));
          return new AcquireResult.Queued(id);
        });
  }

  /** Releases a lease if it is still this owner's; a late or repeated release changes nothing. */
  static Transition<Applied<Boolean>> release(long leaseId, String owner) {
    return transition(
        (s, now, fx) -> {
          LeaseRecord l = s.lease(leaseId);
          if (l == null || !l.owner().equals(owner)) {
            return false;
          }
          s.removeLease(leaseId);
          s.trace().add(TraceEvent.Kind.RELEASED, leaseId, owner, s.activeWeight(), now);
          return true;
        });
  }

  /**
   * Takes requests back that never started, named by their owner references: each leaves the queue,
   * or gives back the grant it got meanwhile with what that grant spent ({@link
   * PoolMachine#unspend}). All leave before anything is granted, so withdrawing the head cannot
   * hand its place to the next withdrawn request. A reference found nowhere (not yet arrived, or
   * already gone) changes nothing.
   *
   * @return how many entries were removed
   */
  static Transition<Applied<Integer>> withdraw(Collection<Long> ownerRefs, String owner) {
    return transition(
        false,
        (s, now, fx) -> {
          Set<Long> refs = ownerRefs instanceof Set<Long> set ? set : new HashSet<>(ownerRefs);
          int removed = 0;
          for (var it = s.waiterIterator(); it.hasNext(); ) {
            WaiterRecord w = it.next();
            if (w.owner().equals(owner) && refs.contains(w.ownerRef())) {
              it.remove();
              s.trace().add(TraceEvent.Kind.WITHDRAWN, w.id(), owner, s.activeWeight(), now);
              removed++;
            }
          }
          List<LeaseRecord> granted = new ArrayList<>();
          for (LeaseRecord l : s.leases()) {
            if (l.owner().equals(owner) && refs.contains(l.ownerRef())) {
              granted.add(l);
            }
          }
          for (LeaseRecord l : granted) {
            s.removeLease(l.id());
            PoolMachine.unspend(s, l);
            s.trace().add(TraceEvent.Kind.WITHDRAWN, l.id(), owner, s.activeWeight(), now);
            removed++;
          }
          return removed;
        });
  }

  /** Applies whatever time has made due: expiries, refills, queue deadlines, grants. */
  static Transition<Applied<Void>> tick() {
    return transition((s, now, fx) -> null);
  }

  /**
   * After another owner changed the pool: finds this owner's requests that were granted (returned
   * as grants) or removed (returned as drops) by someone else's transaction.
   */
  static Transition<Applied<Void>> sync(String owner, Set<Long> pendingRefs) {
    return (PoolState s, TransitionContext ctx) -> {
      Applied<Void> base = tick().apply(s, ctx);
      Effects fx = new Effects();
      for (LeaseRecord l : s.leases()) {
        if (l.owner().equals(owner) && pendingRefs.contains(l.ownerRef())) {
          fx.granted(l);
        }
      }
      java.util.Set<Long> queued = new java.util.HashSet<>();
      for (WaiterRecord w : s.waiters()) {
        if (w.owner().equals(owner)) {
          queued.add(w.ownerRef());
        }
      }
      for (Long ref : pendingRefs) {
        if (!queued.contains(ref) && !containsRef(fx.grants(), ref)) {
          fx.dropped(new WaiterRecord(0, owner, ref, 0, ctx.now(), ctx.now(), -1));
        }
      }
      return new Applied<>(
          null, merge(base.grants(), fx.grants()), fx.dropped(), base.nextDeadline());
    };
  }

  private static boolean containsRef(List<LeaseRecord> leases, long ref) {
    for (LeaseRecord l : leases) {
      if (l.ownerRef() == ref) {
        return true;
      }
    }
    return false;
  }

  private static List<LeaseRecord> merge(List<LeaseRecord> a, List<LeaseRecord> b) {
    List<LeaseRecord> out = new ArrayList<>(a);
    for (LeaseRecord l : b) {
      if (!out.contains(l)) {
        out.add(l);
      }
    }
    return out;
  }

  /** Reads the balance after any due refill; empty for unlimited. */
  static Transition<Applied<OptionalLong>> currentReservoir() {
    return transition(
        (s, now, fx) ->
            s.reservoirLimited() ? OptionalLong.of(s.reservoir()) : OptionalLong.empty());
  }

  /**
   * Adds {@code delta} (negative allowed) to the balance, an unlimited one starting from zero.
   * Returns the new balance, or empty if it would overflow, in which case nothing changes.
   */
  static Transition<Applied<OptionalLong>> incrementReservoir(long delta) {
    return transition(
        (s, now, fx) -> {
          long base = s.reservoirLimited() ? s.reservoir() : 0;
          long sum = base + delta;
          if (((base ^ sum) & (delta ^ sum)) < 0) {
            return OptionalLong.empty();
          }
          s.reservoir(sum);
          s.trace().add(TraceEvent.Kind.ADJUSTED, 0, "", s.activeWeight(), now);
          return OptionalLong.of(sum);
        });
  }

  /** Takes a consistent snapshot. */
  static Transition<Applied<PoolSnapshot>> inspect() {
    return transition((s, now, fx) -> snapshot(s, now));
  }

  /** Removes everything an owner still holds or waits for; used when its session closes. */
  static Transition<Applied<Void>> retire(String owner) {
    return transition(
        (s, now, fx) -> {
          List<Long> held = new ArrayList<>();
          for (LeaseRecord l : s.leases()) {
            if (l.owner().equals(owner)) {
              held.add(l.id());
            }
          }
          for (long id : held) {
            s.removeLease(id);
            s.trace().add(TraceEvent.Kind.RELEASED, id, owner, s.activeWeight(), now);
          }
          for (var it = s.waiterIterator(); it.hasNext(); ) {
            WaiterRecord w = it.next();
            if (w.owner().equals(owner)) {
              it.remove();
              s.trace().add(TraceEvent.Kind.WITHDRAWN, w.id(), owner, s.activeWeight(), now);
            }
          }
          return null;
        });
  }

  /** Returns the pool's configuration. */
  static Transition<LimiterConfig> config() {
    return (s, ctx) -> s.config();
  }

  private static PoolSnapshot snapshot(PoolState s, long now) {
    List<PoolSnapshot.LeaseInfo> leases = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      leases.add(
          new PoolSnapshot.LeaseInfo(
              l.id(),
              l.owner(),
              l.weight(),
              Instant.ofEpochMilli(l.grantedAt()),
              instant(l.expiresAt()),
              l.fencingToken()));
    }
    Collection<WaiterRecord> queue = s.waiters();
    List<PoolSnapshot.WaiterInfo> waiters = new ArrayList<>(queue.size());
    for (WaiterRecord w : queue) {
      waiters.add(
          new PoolSnapshot.WaiterInfo(
              w.id(),
              w.owner(),
              w.weight(),
              Instant.ofEpochMilli(w.enqueuedAt()),
              instant(w.queueDeadline())));
    }
    return new PoolSnapshot(
        Instant.ofEpochMilli(now),
        s.config(),
        s.activeWeight(),
        s.reservoirLimited() ? OptionalLong.of(s.reservoir()) : OptionalLong.empty(),
        leases,
        waiters,
        s.trace().entries());
  }

  static Optional<Instant> instant(long at) {
    return at == PoolState.NEVER ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
  }
}
