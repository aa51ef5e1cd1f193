/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static dev.sluice.spi.ReportedOutcome.SUCCESS;
import static dev.sluice.spi.ReportedOutcome.THROTTLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ControlStatus;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.ReportAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The shared cooldown: a throttle reported by one owner pauses every owner of the pool. */
public abstract class CooldownCases extends ControlCase {
  private static final LimiterConfig CONFIG = cap(10);

  protected CooldownCases(StoreFactory stores) {
    super(stores);
  }

  private Instant at(long millis) {
    return clock.instant().plusMillis(millis);
  }

  @Test
  void aThrottlePausesAnotherOwnerUntilTheCooldownEndsOnOneTimer() throws Exception {
    Reporter r = reporter(CONFIG);
    Limiter limiter = openSecondOwner(CONFIG);
    Instant end = at(500);
    assertThat(r.report(r.lease(), THROTTLE)).isEqualTo(new ReportAnswer(true, true));
    assertThat(limiter.tryAcquire(1)).isEmpty();
    CompletableFuture<Instant> waiting = limiter.schedule(a -> a.grantedAt(), defaults());
    settled(limiter);
    assertThat(clock.pendingDueNanos()).as("one timer, for the cooldown's end").hasSize(1);
    clock.advance(Duration.ofMillis(499));
    settled(limiter);
    assertThat(waiting).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(await(waiting)).isEqualTo(end);
  }

  @Test
  void aWaiterQueuedBeforeTheThrottleSleepsUntilItsEnd() throws Exception {
    Reporter r = reporter(cap(1));
    Limiter limiter = openSecondOwner(cap(1));
    LeaseRecord held = r.lease();
    CompletableFuture<Instant> waiting = limiter.schedule(a -> a.grantedAt(), defaults());
    settled(limiter);
    Instant end = at(500);
    r.report(held, THROTTLE);
    settled(limiter);
    assertThat(waiting).isNotDone();
    clock.advance(Duration.ofMillis(500));
    assertThat(await(waiting)).isEqualTo(end);
  }

  @Test
  void oneBurstOfThrottlesEscalatesOnce() {
    Reporter r = reporter(CONFIG);
    List<LeaseRecord> burst = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      burst.add(r.lease());
    }
    Instant end = at(500);
    int counted = 0;
    for (LeaseRecord l : burst) {
      counted += r.report(l, THROTTLE).counted() ? 1 : 0;
    }
    assertThat(counted).isEqualTo(1);
    Limiter limiter = open(CONFIG);
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(end);
  }

  @Test
  void retryAfterIsAFloorBeyondTheCapAndAStaleSuccessCannotEraseIt() {
    Reporter r = reporter(CONFIG);
    LeaseRecord early = r.lease();
    LeaseRecord throttled = r.lease();
    Instant end = at(90_000);
    r.report(throttled, THROTTLE, 90_000);
    assertThat(r.report(early, SUCCESS).counted()).isFalse();
    Limiter limiter = open(CONFIG);
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(end);
    clock.advance(Duration.ofMillis(89_999));
    assertThat(limiter.tryAcquire(1)).isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void onlyAFreshSuccessAfterTheCooldownResetsTheStep() {
    Reporter r = reporter(CONFIG);
    r.report(r.lease(), THROTTLE);
    clock.advance(Duration.ofMillis(500));
    r.report(r.lease(), THROTTLE);
    Limiter limiter = open(CONFIG);
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(at(1000));
    clock.advance(Duration.ofMillis(1000));
    assertThat(r.report(r.lease(), SUCCESS).counted()).isTrue();
    r.report(r.lease(), THROTTLE);
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(at(500));
  }

  @Test
  void theCooldownSurvivesEveryClientClosing() {
    Reporter r = reporter(CONFIG);
    r.report(r.lease(), THROTTLE, 10_000);
    r.retire();
    Limiter first = open(CONFIG);
    first.close();
    Limiter second = open(CONFIG);
    ControlStatus status = second.maintenance().status();
    assertThat(status.cooldownUntil()).contains(at(10_000));
    assertThat(second.tryAcquire(1)).isEmpty();
  }

  @Test
  void aReportOfAnExpiredLeaseIsNoEvidence() {
    Reporter r = reporter(LimiterConfig.builder().expiration(Duration.ofMillis(10)).build());
    LeaseRecord l = r.lease();
    clock.advance(Duration.ofMillis(10));
    assertThat(r.report(l, THROTTLE, 5_000)).isEqualTo(new ReportAnswer(false, false));
    Limiter limiter = open(LimiterConfig.builder().expiration(Duration.ofMillis(10)).build());
    assertThat(limiter.maintenance().status().cooldownUntil()).isEmpty();
  }

  @Test
  void theCooldownDoublesToItsCapAcrossOwnersAndARetryAfterIsAFloorBeyondIt() {
    Reporter a = reporter(CONFIG);
    Reporter c = reporter(CONFIG);
    Limiter limiter = openSecondOwner(CONFIG);
    Reporter[] owners = {a, c};
    int throttles = 0;
    for (long pause : new long[] {500, 1000, 2000, 4000, 8000, 10_000, 10_000}) {
      Reporter r = owners[throttles++ % 2];
      assertThat(r.report(r.lease(), THROTTLE).counted()).isTrue();
      assertThat(limiter.maintenance().status().cooldownUntil())
          .as("the pause after throttle %d", throttles)
          .contains(at(pause));
      clock.advance(Duration.ofMillis(pause - 1));
      assertThat(limiter.tryAcquire(1)).as("paused until the end").isEmpty();
      clock.advance(Duration.ofMillis(1));
    }
    c.report(c.lease(), THROTTLE, 60_000);
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(at(60_000));
    clock.advance(Duration.ofMillis(60_000));
    a.report(a.lease(), THROTTLE, 1_000);
    assertThat(limiter.maintenance().status().cooldownUntil())
        .as("a retry-after shorter than the capped pause is only a floor")
        .contains(at(10_000));
  }

  @Test
  void lateGuidanceExtendsTheRunningCooldownWithoutEscalating() {
    Reporter a = reporter(CONFIG);
    Reporter c = reporter(CONFIG);
    Limiter limiter = openSecondOwner(CONFIG);
    LeaseRecord first = a.lease();
    LeaseRecord shortGuidance = c.lease();
    LeaseRecord longGuidance = c.lease();
    a.report(first, THROTTLE);
    Instant end = at(500);
    clock.advance(Duration.ofMillis(100));
    assertThat(c.report(shortGuidance, THROTTLE, 200))
        .as("guidance inside the running cooldown changes nothing")
        .isEqualTo(new ReportAnswer(true, false));
    assertThat(limiter.maintenance().status().cooldownUntil()).contains(end);
    assertThat(c.report(longGuidance, THROTTLE, 20_000).counted()).isTrue();
    Instant extended = at(20_000);
    assertThat(limiter.maintenance().status().cooldownUntil())
        .as("a floor beyond the 10 s cap")
        .contains(extended);
    clock.advance(Duration.ofMillis(19_999));
    assertThat(limiter.tryAcquire(1)).isEmpty();
    clock.advance(Duration.ofMillis(1));
    a.report(a.lease(), THROTTLE);
    assertThat(limiter.maintenance().status().cooldownUntil())
        .as("the burst escalated once: the next throttle is the second step")
        .contains(at(1000));
  }

  private static dev.sluice.ScheduleOptions defaults() {
    return dev.sluice.ScheduleOptions.defaults();
  }
}
