/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import static dev.sluice.spi.ReportedOutcome.NEUTRAL;
import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static dev.sluice.spi.ReportedOutcome.THROTTLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared cooldown in the pure algorithm (semaphile §4.12). */
class CooldownRulesTest extends ControlFixture {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().build();

  @Test
  void aThrottlePausesEveryAdmissionUntilTheCooldownEnds() {
    PoolState s = pool(CONFIG);
    LeaseRecord l = grant(s, T0, "a", 1);
    ReportAnswer r = report(s, T0 + 10, l, THROTTLE);
    assertThat(r).isEqualTo(new ReportAnswer(true, true));
    assertThat(s.leases()).isEmpty();
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 510);
    assertThat(acquire(s, T0 + 509, "b", 1, 0)).isInstanceOf(AcquireAnswer.Refused.class);
    AcquireAnswer queued = acquire(s, T0 + 509, "b", 2, -1);
    assertThat(queued).isInstanceOf(AcquireAnswer.Queued.class);
    assertThat(nextDeadline(s, T0 + 509))
        .as("waiters sleep until the cooldown ends")
        .isEqualTo(T0 + 510);
    PoolOutcome<Void> tick = at(s, T0 + 510, new PoolCommand.Tick("t"));
    assertThat(tick.grants()).singleElement().satisfies(g -> assertThat(g.owner()).isEqualTo("b"));
  }

  @Test
  void oneBurstOfThrottlesEscalatesOnce() {
    PoolState s = pool(CONFIG);
    List<LeaseRecord> burst = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      burst.add(grant(s, T0, "a", i));
    }
    assertThat(report(s, T0 + 1, burst.get(0), THROTTLE).counted()).isTrue();
    for (LeaseRecord l : burst.subList(1, 20)) {
      assertThat(report(s, T0 + 2, l, THROTTLE)).isEqualTo(new ReportAnswer(true, false));
    }
    assertThat(s.control().cooldown().step()).isEqualTo(1);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 501);
    assertThat(report(s, T0 + 3, burst.get(0), THROTTLE))
        .as("a repeated report finds no lease")
        .isEqualTo(new ReportAnswer(false, false));
  }

  @Test
  void eachNewEpochDoublesToTheCapAndRetryAfterIsAFloorBeyondIt() {
    PoolState s = pool(CONFIG);
    long now = T0;
    long[] expected = {500, 1000, 2000, 4000, 8000, 10_000, 10_000};
    for (long pause : expected) {
      LeaseRecord l = grant(s, now, "a", 1);
      report(s, now, l, THROTTLE);
      assertThat(s.control().cooldown().until()).isEqualTo(now + pause);
      now += pause;
    }
    LeaseRecord l = grant(s, now, "a", 2);
    report(s, now, l, THROTTLE, 90_000);
    assertThat(s.control().cooldown().until()).isEqualTo(now + 90_000);
  }

  @Test
  void lateGuidanceOfAnOlderBurstExtendsButDoesNotEscalate() {
    PoolState s = pool(CONFIG);
    LeaseRecord first = grant(s, T0, "a", 1);
    LeaseRecord second = grant(s, T0, "a", 2);
    report(s, T0, first, THROTTLE);
    assertThat(report(s, T0 + 100, second, THROTTLE, 2_000).counted()).isTrue();
    assertThat(s.control().cooldown().step()).isEqualTo(1);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 2_100);
  }

  @Test
  void aStaleSuccessCannotEraseOrResetANewerCooldown() {
    PoolState s = pool(CONFIG);
    LeaseRecord early = grant(s, T0, "a", 1);
    LeaseRecord throttled = grant(s, T0, "a", 2);
    report(s, T0, throttled, THROTTLE, 60_000);
    assertThat(report(s, T0 + 70_000, early, SUCCESS).counted()).isFalse();
    assertThat(s.control().cooldown().step()).isEqualTo(1);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 60_000);
  }

  @Test
  void onlyAFreshSuccessAfterTheCooldownResetsTheStep() {
    PoolState s = pool(CONFIG);
    report(s, T0, grant(s, T0, "a", 1), THROTTLE);
    report(s, T0 + 500, grant(s, T0 + 500, "a", 2), THROTTLE);
    assertThat(s.control().cooldown().step()).isEqualTo(2);
    LeaseRecord fresh = grant(s, T0 + 1500, "a", 3);
    assertThat(report(s, T0 + 1600, fresh, NEUTRAL).counted()).isFalse();
    LeaseRecord fresh2 = grant(s, T0 + 1600, "a", 4);
    assertThat(report(s, T0 + 1700, fresh2, SUCCESS).counted()).isTrue();
    assertThat(s.control().cooldown().step()).isZero();
    report(s, T0 + 1800, grant(s, T0 + 1800, "a", 5), THROTTLE);
    assertThat(s.control().cooldown().until()).as("back to the base pause").isEqualTo(T0 + 2300);
  }

  @Test
  void aReportOfAnExpiredOrForeignLeaseChangesNothing() {
    PoolState s = pool(CONFIG);
    AcquireAnswer a = at(s, T0, new PoolCommand.Acquire("a", 1, 1, 100, 0)).value();
    LeaseRecord expiring = ((AcquireAnswer.Granted) a).lease();
    LeaseRecord held = grant(s, T0, "a", 2);
    assertThat(report(s, T0 + 100, expiring, THROTTLE)).isEqualTo(new ReportAnswer(false, false));
    ReportAnswer foreign =
        at(s, T0 + 100, new PoolCommand.Report("b", held.id(), THROTTLE, 0)).value();
    assertThat(foreign).isEqualTo(new ReportAnswer(false, false));
    assertThat(s.control().cooldown()).isEqualTo(ControlState.Cooldown.NONE);
    assertThat(s.lease(held.id())).isNotNull();
  }

  @Test
  void theCooldownSettingsComeFromThePoolsRecoveryPolicy() {
    LimiterConfig c =
        LimiterConfig.builder()
            .recovery(
                RecoveryPolicy.builder()
                    .cooldown(Duration.ofMillis(100), 3, Duration.ofMillis(500))
                    .build())
            .build();
    PoolState s = pool(c);
    report(s, T0, grant(s, T0, "a", 1), THROTTLE);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 100);
    report(s, T0 + 100, grant(s, T0 + 100, "a", 2), THROTTLE);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 400);
    report(s, T0 + 400, grant(s, T0 + 400, "a", 3), THROTTLE);
    assertThat(s.control().cooldown().until()).isEqualTo(T0 + 900);
  }

  @Test
  void aSuccessCannotCarryARetryAfter() {
    assertThatThrownBy(() -> new PoolCommand.Report("a", 1, SUCCESS, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry-after");
    assertThatThrownBy(() -> new PoolCommand.Report("a", 1, THROTTLE, -1))
        .hasMessageContaining("retryAfterMillis");
  }
}
