/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.RecoveryPolicy;

/**
 * The shared cooldown as pure functions: a throttle of an attempt admitted in the current epoch
 * escalates the pause once and starts a new epoch, so the rest of its burst is stale; a retry-after
 * is a floor even beyond the cap, from any report; only a success of an attempt admitted after the
 * cooldown began (so after it ended: nothing is admitted during one) resets the step.
 *
 * <p>Stateless.
 */
final class CooldownRules {
  /** Escalations beyond this change nothing (the cap is long reached) and the step stays small. */
  static final int MAX_STEP = 64;

  private CooldownRules() {}

  /**
   * The cooldown after a report of the attempt that held {@code lease}.
   *
   * @param lastToken the pool's last fencing token, the new epoch's fence
   */
  static ControlState.Cooldown report(
      RecoveryPolicy p,
      ControlState.Cooldown c,
      LeaseRecord lease,
      ReportedOutcome outcome,
      long retryAfter,
      long now,
      long lastToken) {
    boolean fresh = lease.fencingToken() > c.fence();
    if (outcome == ReportedOutcome.THROTTLE && fresh) {
      int step = Math.min(c.step() + 1, MAX_STEP);
      long pause = Math.max(p.cooldownMillis(step), retryAfter);
      long until = Math.max(c.until(), PoolMachine.saturatedAdd(now, pause));
      return new ControlState.Cooldown(c.epoch() + 1, step, until, lastToken);
    }
    if (retryAfter > 0) {
      // Late guidance of an older burst, or guidance on another outcome: it may extend the pause,
      // never escalate it.
      long until = Math.max(c.until(), PoolMachine.saturatedAdd(now, retryAfter));
      return until == c.until()
          ? c
          : new ControlState.Cooldown(c.epoch(), c.step(), until, c.fence());
    }
    if (outcome == ReportedOutcome.SUCCESS && fresh && c.step() > 0 && now >= c.until()) {
      return new ControlState.Cooldown(c.epoch(), 0, c.until(), c.fence());
    }
    return c;
  }
}
