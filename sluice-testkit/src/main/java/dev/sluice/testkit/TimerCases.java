/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * No polling: nothing is armed while nothing waits, one deadline while something does.
 *
 * <p>Every count of timers follows {@link #settled}: a store may apply commands and deliver their
 * outcomes (which arm and cancel timers) on its own thread, so a count taken before the store has
 * applied what this JVM sent would miss a timer that is armed a moment later.
 */
public abstract class TimerCases extends ConformanceCase {
  protected TimerCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void anIdlePoolArmsNoTimers() throws Exception {
    Limiter limiter =
        open(
            LimiterConfig.builder()
                .maxConcurrent(2)
                .minTime(Duration.ofMillis(5))
                .expiration(Duration.ofSeconds(1))
                .reservoir(10)
                .reservoirRefresh(10, Duration.ofSeconds(1))
                .build());
    limiter.acquire(1).close();
    CompletableFuture<Integer> spaced = limiter.schedule(() -> 1);
    settled(limiter);
    clock.advance(Duration.ofMillis(5));
    await(spaced);
    settled(limiter);
    assertThat(clock.pendingDueNanos()).as("timers armed once the pool is idle").isEmpty();
    // Past every lease expiry and reservoir refresh: a timer that re-arms itself while nothing
    // waits (a periodic tick) has sent its tick; once the store applied it, it is armed again.
    clock.advance(Duration.ofSeconds(5));
    settled(limiter);
    assertThat(clock.pendingTimers()).isZero();
    CompletableFuture<Integer> grantedAtOnce =
        limiter.schedule(
            a -> 2, ScheduleOptions.builder().queueTimeout(Duration.ofMinutes(1)).build());
    assertThat(await(grantedAtOnce)).isEqualTo(2);
    settled(limiter);
    assertThat(clock.pendingTimers()).as("an immediate grant keeps no queue timer").isZero();
  }

  @Test
  void aWaiterBehindAnExpiringLeaseArmsOneTimerForTheExpiry() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(7)).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w = limiter.schedule(() -> 1);
    settled(limiter);
    assertThat(clock.pendingTimers()).isEqualTo(1);
    assertThat(clock.pendingDueNanos())
        .containsExactly(clock.monotonicNanos() + Duration.ofSeconds(7).toNanos());
    clock.advance(Duration.ofSeconds(7));
    assertThat(await(w)).isEqualTo(1);
    holder.close();
    settled(limiter);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void aWaiterBehindALeaseThatNeverExpiresArmsNothing() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w = limiter.schedule(() -> 1);
    settled(limiter);
    assertThat(limiter.inspect().waiters()).as("the request waits in the store").hasSize(1);
    assertThat(clock.pendingTimers()).isZero();
    holder.close();
    assertThat(await(w)).isEqualTo(1);
    settled(limiter);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void aQueueTimeoutIsTheOnlyTimerOfAWaiterThatCannotOtherwiseProgress() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w =
        limiter.schedule(
            a -> 1, ScheduleOptions.builder().queueTimeout(Duration.ofSeconds(2)).build());
    long due = clock.monotonicNanos() + Duration.ofSeconds(2).toNanos();
    settled(limiter);
    assertThat(clock.pendingDueNanos()).containsExactly(due);
    clock.advance(Duration.ofSeconds(2));
    awaitFailure(w);
    holder.close();
    settled(limiter);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void timersAreCancelledWhenTheirWaiterIsServedEarly() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofMinutes(5)).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w =
        limiter.schedule(
            a -> 1, ScheduleOptions.builder().queueTimeout(Duration.ofMinutes(1)).build());
    settled(limiter);
    assertThat(clock.pendingTimers()).isPositive();
    holder.close();
    assertThat(await(w)).isEqualTo(1);
    settled(limiter);
    assertThat(clock.pendingTimers()).isZero();
  }
}
