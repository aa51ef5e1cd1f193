/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static dev.sluice.spi.ControlState.BreakerPhase.CLOSED;
import static dev.sluice.spi.ControlState.BreakerPhase.HALF_OPEN;
import static dev.sluice.spi.ControlState.BreakerPhase.OPEN;
import static dev.sluice.spi.ReportedOutcome.NEUTRAL;
import static dev.sluice.spi.ReportedOutcome.SERVICE_FAILURE;
import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static dev.sluice.spi.ReportedOutcome.THROTTLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BreakerPolicy;
import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The circuit breaker in the pure algorithm (semaphile §4.13). */
class BreakerRulesTest extends ControlFixture {
  static LimiterConfig withBreaker(BreakerPolicy b) {
    return LimiterConfig.builder().recovery(RecoveryPolicy.builder().breaker(b).build()).build();
  }

  static final LimiterConfig CONSECUTIVE = withBreaker(BreakerPolicy.consecutive().build());

  /** Opens the circuit at {@code now} with five failures in a row. */
  static void trip(PoolState s, long now) {
    for (int i = 0; i < 5; i++) {
      report(s, now, grant(s, now, "a", 100 + i), SERVICE_FAILURE);
    }
    assertThat(s.control().breaker().phase()).isEqualTo(OPEN);
  }

  @Test
  void theBreakerIsOffByDefault() {
    PoolState s = pool(LimiterConfig.builder().build());
    for (int i = 0; i < 50; i++) {
      report(s, T0, grant(s, T0, "a", i), SERVICE_FAILURE);
    }
    assertThat(s.control().breaker()).isEqualTo(ControlState.Breaker.CLOSED);
  }

  @Test
  void fiveServiceFailuresInARowOpenForThirtySeconds() {
    PoolState s = pool(CONSECUTIVE);
    for (int i = 0; i < 4; i++) {
      report(s, T0, grant(s, T0, "a", i), SERVICE_FAILURE);
    }
    report(s, T0, grant(s, T0, "a", 9), NEUTRAL);
    report(s, T0, grant(s, T0, "a", 9), THROTTLE);
    assertThat(s.control().breaker().consecutiveFailures())
        .as("throttles and neutral outcomes are no evidence")
        .isEqualTo(4);
    long now = T0 + 500;
    report(s, now, grant(s, now, "a", 9), SUCCESS);
    assertThat(s.control().breaker().consecutiveFailures()).isZero();
    trip(s, now + 1);
    assertThat(s.control().breaker().openUntil()).isEqualTo(now + 1 + 30_000);
    assertThat(acquire(s, now + 2, "b", 1, 0)).isInstanceOf(AcquireAnswer.Refused.class);
    assertThat(acquire(s, now + 2, "b", 2, -1)).isInstanceOf(AcquireAnswer.Queued.class);
    assertThat(nextDeadline(s, now + 2)).isEqualTo(now + 1 + 30_000);
  }

  @Test
  void afterThePauseExactlyOneProbeIsAdmittedAndSpendsBudget() {
    PoolState s = pool(withBreaker(BreakerPolicy.consecutive().build()));
    trip(s, T0);
    long open = T0 + 30_000;
    acquire(s, T0, "b", 1, -1);
    acquire(s, T0, "c", 1, -1);
    PoolOutcome<Void> tick = at(s, open, new PoolCommand.Tick("t"));
    LeaseRecord probe = tick.grants().get(0);
    assertThat(tick.grants()).hasSize(1);
    assertThat(probe.owner()).isEqualTo("b");
    assertThat(s.control().breaker().phase()).isEqualTo(HALF_OPEN);
    assertThat(s.control().breaker().probe().leaseId()).isEqualTo(probe.id());
    assertThat(nextDeadline(s, open)).as("the probe's timeout").isEqualTo(open + 60_000);
    PoolOutcome<ReportAnswer> closed =
        at(s, open + 5, new PoolCommand.Report("b", probe.id(), SUCCESS, 0));
    assertThat(closed.value().counted()).isTrue();
    assertThat(s.control().breaker().phase()).isEqualTo(CLOSED);
    assertThat(s.control().breaker().step()).isZero();
    assertThat(closed.grants())
        .singleElement()
        .satisfies(g -> assertThat(g.owner()).isEqualTo("c"));
  }

  @Test
  void theProbeSpendsTheReservoirLikeAnyAdmission() {
    PoolState s =
        pool(
            LimiterConfig.builder()
                .reservoir(10)
                .recovery(
                    RecoveryPolicy.builder().breaker(BreakerPolicy.consecutive().build()).build())
                .build());
    trip(s, T0);
    assertThat(s.reservoir()).isEqualTo(5);
    grant(s, T0 + 30_000, "b", 1);
    assertThat(s.reservoir()).isEqualTo(4);
  }

  @Test
  void failedProbesDoubleThePauseToTheCap() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    long now = T0 + 30_000;
    for (long pause : new long[] {60_000, 120_000, 240_000, 300_000, 300_000}) {
      report(s, now, grant(s, now, "b", 1), SERVICE_FAILURE);
      assertThat(s.control().breaker().phase()).isEqualTo(OPEN);
      assertThat(s.control().breaker().openUntil()).isEqualTo(now + pause);
      now += pause;
    }
  }

  @Test
  void aNeutralOrThrottledProbeReopensWithoutEscalation() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    long now = T0 + 30_000;
    report(s, now, grant(s, now, "b", 1), SERVICE_FAILURE);
    now += 60_000;
    report(s, now, grant(s, now, "b", 2), NEUTRAL);
    assertThat(s.control().breaker().openUntil()).isEqualTo(now + 60_000);
    now += 60_000;
    report(s, now, grant(s, now, "b", 3), THROTTLE);
    assertThat(s.control().breaker().openUntil()).isEqualTo(now + 60_000);
    assertThat(s.control().breaker().step()).isEqualTo(1);
  }

  @Test
  void aProbeReleasedOrExpiredWithoutAReportCannotCloseTheCircuit() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    long now = T0 + 30_000;
    LeaseRecord probe = grant(s, now, "b", 1);
    at(s, now + 1, new PoolCommand.Release("b", probe.id()));
    assertThat(s.control().breaker().phase()).isEqualTo(OPEN);
    assertThat(s.control().breaker().openUntil()).isEqualTo(now + 1 + 30_000);
    now += 1 + 30_000;
    AcquireAnswer a = at(s, now, new PoolCommand.Acquire("b", 2, 1, 50, 0)).value();
    LeaseRecord expiring = ((AcquireAnswer.Granted) a).lease();
    assertThat(report(s, now + 50, expiring, SUCCESS)).isEqualTo(new ReportAnswer(false, false));
    assertThat(s.control().breaker().phase()).isEqualTo(OPEN);
    assertThat(s.control().breaker().step()).isZero();
  }

  @Test
  void aProbePastItsTimeoutIsReplacedAndItsLateReportRefused() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    long now = T0 + 30_000;
    LeaseRecord stale = grant(s, now, "b", 1);
    assertThat(acquire(s, now + 59_999, "c", 1, 0)).isInstanceOf(AcquireAnswer.Refused.class);
    LeaseRecord replacement = grant(s, now + 60_000, "c", 2);
    assertThat(s.control().breaker().probe().leaseId()).isEqualTo(replacement.id());
    assertThat(report(s, now + 60_001, stale, SUCCESS)).isEqualTo(new ReportAnswer(true, false));
    assertThat(s.control().breaker().phase()).isEqualTo(HALF_OPEN);
    report(s, now + 60_002, replacement, SUCCESS);
    assertThat(s.control().breaker().phase()).isEqualTo(CLOSED);
  }

  @Test
  void aWithdrawnProbeGrantMakesRoomForAnother() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    long now = T0 + 30_000;
    grant(s, now, "b", 7);
    at(s, now, new PoolCommand.Withdraw("b", java.util.Set.of(7L)));
    assertThat(s.control().breaker().phase()).isEqualTo(HALF_OPEN);
    LeaseRecord next = grant(s, now, "c", 1);
    assertThat(s.control().breaker().probe().leaseId()).isEqualTo(next.id());
  }

  @Test
  void failFastRefusesWithWhenToRetryAndChangesNothing() {
    PoolState s = pool(CONSECUTIVE);
    trip(s, T0);
    s.markClean();
    AcquireAnswer a =
        at(s, T0 + 10, new PoolCommand.Acquire("b", 1, 1, -1, -1, true, false)).value();
    assertThat(a).isEqualTo(new AcquireAnswer.CircuitOpen(T0 + 30_000));
    assertThat(s.isDirty()).isFalse();
    assertThat(s.waiters()).isEmpty();
  }

  @Test
  void reportsOfAttemptsAdmittedBeforeTheCircuitClosedAreNoEvidence() {
    PoolState s = pool(CONSECUTIVE);
    LeaseRecord[] old = new LeaseRecord[5];
    for (int i = 0; i < 5; i++) {
      old[i] = grant(s, T0, "a", i);
    }
    trip(s, T0);
    long now = T0 + 30_000;
    report(s, now, grant(s, now, "b", 1), SUCCESS);
    for (LeaseRecord l : old) {
      assertThat(report(s, now + 1, l, SERVICE_FAILURE).counted()).isFalse();
    }
    assertThat(s.control().breaker().phase()).isEqualTo(CLOSED);
    assertThat(s.control().breaker().consecutiveFailures()).isZero();
  }

  @Test
  void thePercentageRuleOpensOnTheShareOfFailuresInTheWindow() {
    PoolState s =
        pool(withBreaker(BreakerPolicy.percentage(0.5, 4, Duration.ofSeconds(10)).build()));
    report(s, T0, grant(s, T0, "a", 1), SERVICE_FAILURE);
    report(s, T0, grant(s, T0, "a", 2), SERVICE_FAILURE);
    report(s, T0 + 1, grant(s, T0 + 1, "a", 3), SUCCESS);
    assertThat(s.control().breaker().phase()).as("3 samples < 4").isEqualTo(CLOSED);
    report(s, T0 + 20_000, grant(s, T0 + 20_000, "a", 4), SUCCESS);
    report(s, T0 + 20_000, grant(s, T0 + 20_000, "a", 5), SERVICE_FAILURE);
    report(s, T0 + 20_000, grant(s, T0 + 20_000, "a", 6), SUCCESS);
    assertThat(s.control().breaker().phase())
        .as("the old samples left the window")
        .isEqualTo(CLOSED);
    report(s, T0 + 20_001, grant(s, T0 + 20_001, "a", 7), SERVICE_FAILURE);
    assertThat(s.control().breaker().phase()).as("2 of 4 failed").isEqualTo(OPEN);
  }
}
