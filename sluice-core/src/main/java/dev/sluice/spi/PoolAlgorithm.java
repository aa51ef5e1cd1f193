/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.TraceEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The one limiter algorithm every store runs: a pure function of a pool's state, a {@link
 * PoolCommand} and a {@link PoolContext}. It reads no clock, does no I/O and runs no code of the
 * caller's; what a store must persist is in the state ({@link PoolState#isDirty()}), and what it
 * must tell owners is in the returned {@link PoolOutcome}.
 *
 * <p>Each command first brings the state up to the context's time (reclaims of dead owners, lease
 * expiries, refills, queue deadlines), grants the head waiters that now fit, does its own part, and
 * grants again. A command that refuses leaves the state as it was.
 *
 * <p>Thread-safe in itself (it holds no state); the caller gives it exclusive use of the {@code
 * PoolState} for the call. Never blocks.
 */
public final class PoolAlgorithm {
  private PoolAlgorithm() {}

  /**
   * Applies one command.
   *
   * @param state the pool's state, changed in place
   * @param command what the owner asks
   * @param context the store's time, dead owners and order
   * @param <R> the command's answer type
   * @return what the command did
   */
  @SuppressWarnings("unchecked")
  public static <R> PoolOutcome<R> apply(
      PoolState state, PoolCommand<R> command, PoolContext context) {
    long now = context.now();
    long before = PoolMachine.nextDeadline(state, now);
    ControlState controlBefore = state.controlCore();
    ControlState.Drain drainBefore = controlBefore.drain();
    int workBefore = drainBefore.draining() ? work(state) : 0;
    long expiryBefore = drainBefore.draining() ? state.earliestExpiry() : PoolState.NEVER;
    Effects fx = new Effects();
    PoolMachine.settle(state, context, fx);
    // A withdrawal takes its requests out before anything is granted, or one could be granted
    // and spend on the way out.
    if (!(command instanceof PoolCommand.Withdraw)) {
      PoolMachine.pump(state, now, fx);
    }
    Object value = body(state, command, now, fx);
    // A probe the command released or retired without a report reopens the circuit now.
    ControlRules.settle(state, now);
    PoolMachine.pump(state, now, fx);
    long after = PoolMachine.nextDeadline(state, now);
    ControlState.Drain drainAfter = state.controlCore().drain();
    boolean everyone =
        !drainAfter.equals(drainBefore)
            || (drainAfter.draining()
                && (work(state) < workBefore || state.earliestExpiry() < expiryBefore))
            || pauseChanged(controlBefore, state.controlCore());
    return new PoolOutcome<>(
        (R) value,
        command.owner(),
        fx.grants(),
        fx.ended(),
        after,
        after != before,
        context.sequence(),
        everyone,
        context.atIssuersReading());
  }

  /**
   * Whether a cooldown began or moved, or the circuit changed its phase or its pause: what every
   * owner's listeners report, in whatever process. A breaker's failure count alone is not.
   */
  private static boolean pauseChanged(ControlState before, ControlState after) {
    if (before == after) {
      return false;
    }
    ControlState.Breaker b = before.breaker();
    ControlState.Breaker a = after.breaker();
    return before.cooldown().until() != after.cooldown().until()
        || b.phase() != a.phase()
        || b.openUntil() != a.openUntil();
  }

  /** What a drain waits for: leases, waiters and operations not finished or acknowledged. */
  private static int work(PoolState s) {
    return s.leases().size() + s.waiters().size() + OperationRules.pending(s);
  }

  private static Object body(PoolState s, PoolCommand<?> c, long now, Effects fx) {
    if (c instanceof PoolCommand.Acquire a) {
      return acquire(s, a, now);
    } else if (c instanceof PoolCommand.Release r) {
      return release(s, r, now);
    } else if (c instanceof PoolCommand.Withdraw w) {
      return withdraw(s, w, now);
    } else if (c instanceof PoolCommand.Sync sync) {
      sync(s, sync, now, fx);
      return null;
    } else if (c instanceof PoolCommand.ReadReservoir) {
      return s.reservoirLimited() ? OptionalLong.of(s.reservoir()) : OptionalLong.empty();
    } else if (c instanceof PoolCommand.IncrementReservoir i) {
      return increment(s, i.delta(), now);
    } else if (c instanceof PoolCommand.Inspect) {
      return Snapshots.of(s, now);
    } else if (c instanceof PoolCommand.Retire r) {
      retire(s, r.owner(), now);
      return null;
    } else if (c instanceof PoolCommand.Report r) {
      return ControlRules.report(s, r, now);
    } else if (c instanceof PoolCommand.Drain) {
      return ControlRules.drain(s, now);
    } else if (c instanceof PoolCommand.Resume r) {
      return ControlRules.resume(s, r.generation());
    } else if (c instanceof PoolCommand.ReadControl) {
      return ControlView.of(s, now);
    } else if (c instanceof PoolCommand.Finish f) {
      return OperationRules.finished(s, f.owner(), f.operation());
    } else if (c instanceof PoolCommand.Acknowledge a) {
      return OperationRules.acknowledge(s, a);
    }
    // Tick: settling and granting is all it does.
    return null;
  }

  private static AcquireAnswer acquire(PoolState s, PoolCommand.Acquire a, long now) {
    AcquireAnswer answer = admit(s, a, now);
    if (!a.operation().isEmpty()
        && (answer instanceof AcquireAnswer.Granted || answer instanceof AcquireAnswer.Queued)) {
      OperationRules.begun(s, a.owner(), a.operation());
    }
    return answer;
  }

  private static AcquireAnswer admit(PoolState s, PoolCommand.Acquire a, long now) {
    long weight = a.weight();
    ControlState.Drain drain = s.controlCore().drain();
    if (drain.draining() && !a.continuing()) {
      return new AcquireAnswer.Draining(drain.generation());
    }
    if (a.failFast() && ControlRules.circuitRefuses(s, now)) {
      return new AcquireAnswer.CircuitOpen(ControlRules.unblockedAt(s, now));
    }
    if (s.config().maxConcurrentRaw() < 0 && PoolMachine.overflows(s, weight)) {
      return new AcquireAnswer.Overflow(s.activeWeight(), weight);
    }
    if (!s.hasWaiters() && PoolMachine.admissible(s, weight, now)) {
      return new AcquireAnswer.Granted(
          PoolMachine.grant(
              s,
              s.nextEntryId(),
              a.owner(),
              a.ownerRef(),
              weight,
              a.leaseLifetime(),
              !a.operation().isEmpty(),
              now));
    }
    long wait = a.queueWaitMillis();
    if (wait == 0) {
      return new AcquireAnswer.Refused();
    }
    long deadline = wait < 0 ? PoolState.NEVER : PoolMachine.saturatedAdd(now, wait);
    long id = s.nextEntryId();
    s.addWaiter(
        new WaiterRecord(
            id,
            a.owner(),
            a.ownerRef(),
            weight,
            now,
            deadline,
            a.leaseLifetime(),
            !a.operation().isEmpty()));
    return new AcquireAnswer.Queued(id, deadline);
  }

  private static boolean release(PoolState s, PoolCommand.Release r, long now) {
    LeaseRecord l = s.lease(r.leaseId());
    if (l == null || !l.owner().equals(r.owner())) {
      return false;
    }
    s.removeLease(l.id());
    s.trace().add(TraceEvent.Kind.RELEASED, l.id(), r.owner(), s.activeWeight(), now);
    return true;
  }

  /**
   * All named requests leave before anything is granted, so withdrawing the head cannot hand its
   * place to the next withdrawn request. A reference found nowhere (not yet arrived, or already
   * gone) changes nothing.
   */
  private static int withdraw(PoolState s, PoolCommand.Withdraw w, long now) {
    String owner = w.owner();
    Set<Long> refs = w.ownerRefs();
    int removed = 0;
    for (var it = s.waiterIterator(); it.hasNext(); ) {
      WaiterRecord q = it.next();
      if (q.owner().equals(owner) && refs.contains(q.ownerRef())) {
        it.remove();
        s.trace().add(TraceEvent.Kind.WITHDRAWN, q.id(), owner, s.activeWeight(), now);
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
      ControlRules.withdrawn(s, l.id());
      s.trace().add(TraceEvent.Kind.WITHDRAWN, l.id(), owner, s.activeWeight(), now);
      removed++;
    }
    return removed;
  }

  /**
   * Reports the issuer's pending requests that someone else granted or ended. One found neither
   * leased nor queued was ended by another owner's command: if it was admitted (the trace says so)
   * or could not yet have timed out, its lease expired or was reclaimed before the issuer saw it.
   */
  private static void sync(PoolState s, PoolCommand.Sync sync, long now, Effects fx) {
    String owner = sync.owner();
    Set<Long> leased = new HashSet<>();
    for (LeaseRecord l : s.leases()) {
      if (l.owner().equals(owner)) {
        leased.add(l.ownerRef());
        for (PoolCommand.Sync.Pending p : sync.pending()) {
          if (p.ownerRef() == l.ownerRef()) {
            fx.grantedOnce(l);
          }
        }
      }
    }
    for (PoolCommand.Sync.Pending p : sync.pending()) {
      if (leased.contains(p.ownerRef()) || s.waiter(p.entryId()) != null) {
        continue;
      }
      boolean admitted = s.trace().contains(TraceEvent.Kind.ADMITTED, p.entryId());
      EndedRequest.Reason why =
          admitted || now < p.queueDeadline()
              ? EndedRequest.Reason.LEASE_LOST
              : EndedRequest.Reason.TIMED_OUT;
      fx.ended(new EndedRequest(p.entryId(), owner, p.ownerRef(), why, 0, p.queueDeadline()));
    }
  }

  private static OptionalLong increment(PoolState s, long delta, long now) {
    long base = s.reservoirLimited() ? s.reservoir() : 0;
    long sum = base + delta;
    if (((base ^ sum) & (delta ^ sum)) < 0) {
      return OptionalLong.empty();
    }
    s.reservoir(sum);
    s.trace().add(TraceEvent.Kind.ADJUSTED, 0, "", s.activeWeight(), now);
    return OptionalLong.of(sum);
  }

  private static void retire(PoolState s, String owner, long now) {
    OperationRules.retired(s, owner);
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
  }
}
