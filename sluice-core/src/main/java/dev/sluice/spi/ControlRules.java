/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.BreakerPolicy;
import dev.sluice.RecoveryPolicy;
import dev.sluice.TraceEvent;

/**
 * The control state of managed execution in the one algorithm: what the shared cooldown, the
 * circuit breaker and the drain allow at admission, when a blocked queue can move again, and the
 * commands that change them. Every store runs this through {@link PoolAlgorithm}, so the rules hold
 * alike in one JVM, across processes and across machines.
 *
 * <p>Stateless.
 */
final class ControlRules {
  // The report's answers, shared: a report is made per managed attempt.
  private static final ReportAnswer NOT_RELEASED = new ReportAnswer(false, false);
  private static final ReportAnswer RELEASED = new ReportAnswer(true, false);
  private static final ReportAnswer COUNTED = new ReportAnswer(true, true);

  private ControlRules() {}

  /** Whether the cooldown or the circuit keeps every admission out at {@code now}. */
  static boolean blocks(PoolState s, long now) {
    ControlState c = s.controlCore();
    if (c == ControlState.NONE) {
      return false;
    }
    return now < c.cooldown().until() || BreakerRules.blocks(c.breaker(), now);
  }

  /** When an admission {@link #blocks blocked} at {@code now} may happen by time alone. */
  static long unblockedAt(PoolState s, long now) {
    ControlState c = s.controlCore();
    long at = Math.max(now, c.cooldown().until());
    if (BreakerRules.blocks(c.breaker(), now)) {
      at = Math.max(at, BreakerRules.reopensAt(c.breaker()));
    }
    return at;
  }

  /** Whether a fail-fast request is refused: the circuit is open or its probe runs. */
  static boolean circuitRefuses(PoolState s, long now) {
    return BreakerRules.blocks(s.controlCore().breaker(), now);
  }

  /** Brings the breaker up to {@code now}: an ended or timed-out probe. */
  static void settle(PoolState s, long now) {
    BreakerPolicy p = s.config().recovery().breaker();
    ControlState c = s.controlCore();
    if (p != null && c.breaker().phase() == ControlState.BreakerPhase.HALF_OPEN) {
      s.controlCore(withBreaker(c, BreakerRules.settle(p, c.breaker(), s, now)));
    }
  }

  /** After a grant: it may be the half-open circuit's probe. */
  static void granted(PoolState s, LeaseRecord lease, long now) {
    BreakerPolicy p = s.config().recovery().breaker();
    ControlState c = s.controlCore();
    if (p != null && c.breaker().phase() != ControlState.BreakerPhase.CLOSED) {
      s.controlCore(withBreaker(c, BreakerRules.granted(p, c.breaker(), lease, now)));
    }
  }

  /** A grant given back before it started: if it was the probe, another may take its place. */
  static void withdrawn(PoolState s, long leaseId) {
    ControlState c = s.controlCore();
    if (c.breaker().phase() == ControlState.BreakerPhase.HALF_OPEN) {
      s.controlCore(withBreaker(c, BreakerRules.withdrawn(c.breaker(), leaseId)));
    }
  }

  /** Counts the outcome of the attempt that held a lease, then releases the lease. */
  static ReportAnswer report(PoolState s, PoolCommand.Report r, long now) {
    // Removed at once, in the one look: nothing below reads the leases.
    LeaseRecord lease = s.removeLease(r.leaseId(), r.owner());
    if (lease == null) {
      // Lost work is no evidence, but its operation still ends with the report.
      if (!r.operation().isEmpty()) {
        OperationRules.finished(s, r.owner(), r.operation());
      }
      return NOT_RELEASED;
    }
    RecoveryPolicy p = s.config().recovery();
    ControlState c = s.controlCore();
    long last = s.lastFencingToken();
    ControlState.Cooldown cooldown =
        CooldownRules.report(p, c.cooldown(), lease, r.outcome(), r.retryAfterMillis(), now, last);
    ControlState.Breaker breaker =
        p.breaker() == null
            ? c.breaker()
            : BreakerRules.report(p.breaker(), c.breaker(), lease, r.outcome(), now, last);
    ControlState next = c.withCooldown(cooldown).withBreaker(breaker);
    boolean counted = next != c && !next.equals(c);
    if (!r.operation().isEmpty()) {
      OperationRules.finished(s, r.owner(), r.operation());
    }
    s.controlCore(next);
    s.trace().add(TraceEvent.Kind.RELEASED, lease.id(), r.owner(), s.activeWeight(), now);
    return counted ? COUNTED : RELEASED;
  }

  /** Starts a drain, or answers the running one. */
  static ControlView drain(PoolState s, long now) {
    ControlState c = s.controlCore();
    if (!c.drain().draining()) {
      s.controlCore(c.withDrain(new ControlState.Drain(c.drain().generation() + 1, true)));
    }
    return ControlView.of(s, now);
  }

  /** Ends the drain of {@code generation} if it is the latest. */
  static boolean resume(PoolState s, long generation) {
    ControlState c = s.controlCore();
    if (generation != c.drain().generation()) {
      return false;
    }
    s.controlCore(c.withDrain(new ControlState.Drain(generation, false)));
    // Acknowledged records have served their drain: a later drain can report clean.
    OperationRules.pruneAcknowledged(s);
    return true;
  }

  private static ControlState withBreaker(ControlState c, ControlState.Breaker b) {
    return c.withBreaker(b);
  }
}
