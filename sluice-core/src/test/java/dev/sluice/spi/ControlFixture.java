/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;

/** Helpers for the control-state tests: explicit store times, one command at a time. */
abstract class ControlFixture {
  static final long T0 = 1_000_000;

  static PoolState pool(LimiterConfig config) {
    return PoolState.create(config, T0, 16);
  }

  static <T> PoolOutcome<T> at(PoolState s, long now, PoolCommand<T> c) {
    return PoolAlgorithm.apply(s, c, PoolContext.at(now, 0));
  }

  static LeaseRecord grant(PoolState s, long now, String owner, long ref) {
    AcquireAnswer a = at(s, now, new PoolCommand.Acquire(owner, ref, 1, -1, 0)).value();
    assertThat(a).as("admitted at once").isInstanceOf(AcquireAnswer.Granted.class);
    return ((AcquireAnswer.Granted) a).lease();
  }

  static AcquireAnswer acquire(PoolState s, long now, String owner, long ref, long wait) {
    return at(s, now, new PoolCommand.Acquire(owner, ref, 1, -1, wait)).value();
  }

  static ReportAnswer report(
      PoolState s, long now, LeaseRecord l, ReportedOutcome outcome, long retryAfter) {
    return at(s, now, new PoolCommand.Report(l.owner(), l.id(), outcome, retryAfter)).value();
  }

  static ReportAnswer report(PoolState s, long now, LeaseRecord l, ReportedOutcome outcome) {
    return report(s, now, l, outcome, 0);
  }

  static long nextDeadline(PoolState s, long now) {
    return at(s, now, new PoolCommand.Tick("t")).nextDeadline();
  }
}
