/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.BreakerPolicy;
import dev.sluice.spi.ControlState.Breaker;
import dev.sluice.spi.ControlState.BreakerPhase;
import dev.sluice.spi.ControlState.Probe;
import dev.sluice.spi.ControlState.Sample;
import java.util.ArrayList;
import java.util.List;

/**
 * The circuit breaker as pure functions. While closed, successes and service failures of attempts
 * admitted since the last opening or closing are evidence for the rule; throttles and neutral
 * outcomes are none. An open circuit admits nothing until its pause ends; then the next admission
 * is the probe, the only one until it ends: a success closes the circuit and resets the pause, a
 * service failure reopens it with the pause grown by the factor (to the cap), anything else
 * (neutral, throttle, a release without a report, an expiry, a reclaim) reopens it with the same
 * pause. A probe that outlives its timeout is replaced, and its late report is refused.
 *
 * <p>The percentage rule keeps its samples in at most {@value #BUCKETS} buckets across the window,
 * so the window slides in steps of 1/{@value #BUCKETS} of its length.
 *
 * <p>Stateless.
 */
final class BreakerRules {
  static final int BUCKETS = 128;

  private BreakerRules() {}

  /** The breaker after a report of the attempt that held {@code lease}. */
  static Breaker report(
      BreakerPolicy p,
      Breaker b,
      LeaseRecord lease,
      ReportedOutcome outcome,
      long now,
      long lastToken) {
    if (b.phase() == BreakerPhase.HALF_OPEN) {
      if (b.probe().leaseId() != lease.id()) {
        return b;
      }
      if (outcome == ReportedOutcome.SUCCESS) {
        return new Breaker(
            BreakerPhase.CLOSED, b.epoch() + 1, 0, 0, 0, lastToken, Probe.NONE, List.of());
      }
      int step = b.step() + (outcome == ReportedOutcome.SERVICE_FAILURE ? 1 : 0);
      return open(p, b, Math.min(step, CooldownRules.MAX_STEP), now, lastToken);
    }
    boolean evidence =
        outcome == ReportedOutcome.SUCCESS || outcome == ReportedOutcome.SERVICE_FAILURE;
    if (b.phase() != BreakerPhase.CLOSED || !evidence || lease.fencingToken() <= b.fence()) {
      return b;
    }
    boolean failed = outcome == ReportedOutcome.SERVICE_FAILURE;
    if (p.rule() == BreakerPolicy.Rule.CONSECUTIVE) {
      int failures = failed ? b.consecutiveFailures() + 1 : 0;
      if (failures >= p.failureThreshold()) {
        return open(p, b, 0, now, lastToken);
      }
      // A success after a success changes nothing: the same breaker, so no new control state.
      return failures == b.consecutiveFailures() ? b : withFailures(b, failures, b.samples());
    }
    List<Sample> samples = sampled(p, b.samples(), failed, now);
    long total = 0;
    long failures = 0;
    for (Sample s : samples) {
      total += s.total();
      failures += s.failures();
    }
    if (total >= p.minimumSamples() && failures >= p.failureRatio() * total) {
      return open(p, b, 0, now, lastToken);
    }
    return withFailures(b, b.consecutiveFailures(), samples);
  }

  /**
   * Before a command: a probe whose lease ended without a report reopens the circuit with the same
   * pause; one past its timeout makes room for a replacement.
   */
  static Breaker settle(BreakerPolicy p, Breaker b, PoolState s, long now) {
    if (b.phase() != BreakerPhase.HALF_OPEN || b.probe().leaseId() == 0) {
      return b;
    }
    if (s.lease(b.probe().leaseId()) == null) {
      return open(p, b, b.step(), now, s.lastFencingToken());
    }
    if (now >= b.probe().expiresAt()) {
      return withProbe(b, BreakerPhase.HALF_OPEN, Probe.NONE);
    }
    return b;
  }

  /** After a grant: the first admission after the pause is the probe. */
  static Breaker granted(BreakerPolicy p, Breaker b, LeaseRecord lease, long now) {
    if (b.phase() == BreakerPhase.CLOSED
        || (b.phase() == BreakerPhase.HALF_OPEN && b.probe().leaseId() != 0)) {
      return b;
    }
    Probe probe = new Probe(lease.id(), PoolMachine.saturatedAdd(now, p.probeTimeoutMillis()));
    return withProbe(b, BreakerPhase.HALF_OPEN, probe);
  }

  /** A probe whose grant was withdrawn before it started was never a probe: make room. */
  static Breaker withdrawn(Breaker b, long leaseId) {
    if (b.phase() == BreakerPhase.HALF_OPEN && b.probe().leaseId() == leaseId) {
      return withProbe(b, BreakerPhase.HALF_OPEN, Probe.NONE);
    }
    return b;
  }

  /** Whether the circuit keeps admissions out at {@code now}. */
  static boolean blocks(Breaker b, long now) {
    switch (b.phase()) {
      case OPEN:
        return now < b.openUntil();
      case HALF_OPEN:
        return b.probe().leaseId() != 0;
      default:
        return false;
    }
  }

  /** When a circuit that {@link #blocks} may admit again by time alone. */
  static long reopensAt(Breaker b) {
    return b.phase() == BreakerPhase.OPEN ? b.openUntil() : b.probe().expiresAt();
  }

  private static Breaker open(BreakerPolicy p, Breaker b, int step, long now, long lastToken) {
    long until = PoolMachine.saturatedAdd(now, p.pauseMillis(step));
    return new Breaker(
        BreakerPhase.OPEN, b.epoch() + 1, step, until, 0, lastToken, Probe.NONE, List.of());
  }

  private static Breaker withFailures(Breaker b, int failures, List<Sample> samples) {
    return new Breaker(
        b.phase(), b.epoch(), b.step(), b.openUntil(), failures, b.fence(), b.probe(), samples);
  }

  private static Breaker withProbe(Breaker b, BreakerPhase phase, Probe probe) {
    return new Breaker(
        phase,
        b.epoch(),
        b.step(),
        b.openUntil(),
        b.consecutiveFailures(),
        b.fence(),
        probe,
        b.samples());
  }

  /** The samples inside the window ending at {@code now}, with this report added. */
  private static List<Sample> sampled(BreakerPolicy p, List<Sample> old, boolean failed, long now) {
    long width = Math.max(1, p.windowMillis() / BUCKETS);
    long bucket = now - Math.floorMod(now, width);
    List<Sample> kept = new ArrayList<>(old.size() + 1);
    for (Sample s : old) {
      // A bucket counts while any of it lies inside the window.
      if (s.at() + width > now - p.windowMillis()) {
        kept.add(s);
      }
    }
    int last = kept.size() - 1;
    int failures = failed ? 1 : 0;
    if (last >= 0 && kept.get(last).at() == bucket) {
      Sample s = kept.get(last);
      kept.set(last, new Sample(bucket, s.failures() + failures, s.total() + 1));
    } else {
      kept.add(new Sample(bucket, failures, 1));
    }
    return kept;
  }
}
