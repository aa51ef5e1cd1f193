/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AccountingOverflowException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The token reservoir: spending, fixed-phase refill, reading and adjusting the balance. */
public abstract class ReservoirCases extends ConformanceCase {
  private static final Duration SECOND = Duration.ofSeconds(1);

  protected ReservoirCases(StoreFactory stores) {
    super(stores);
  }

  private static LimiterConfig tokens(long initial) {
    return LimiterConfig.builder().reservoir(initial).build();
  }

  private static LimiterConfig refilled(long initial, long amount) {
    return LimiterConfig.builder().reservoir(initial).reservoirRefresh(amount, SECOND).build();
  }

  @Test
  void admissionsSpendTheInitialBalance() throws Exception {
    Limiter limiter = open(tokens(3));
    limiter.acquire(1).close();
    limiter.acquire(2).close();
    assertThat(limiter.currentReservoir()).hasValue(0);
    assertThat(limiter.tryAcquire(1)).isEmpty();
  }

  @Test
  void anExhaustedReservoirQueuesUntilTokensArrive() throws Exception {
    Limiter limiter = open(tokens(1));
    limiter.acquire(1).close();
    CompletableFuture<Integer> waiting = limiter.schedule(() -> 7);
    assertThat(limiter.inspect().waiters()).hasSize(1);
    assertThat(limiter.incrementReservoir(1)).isEqualTo(1);
    assertThat(await(waiting)).isEqualTo(7);
    assertThat(limiter.currentReservoir()).hasValue(0);
  }

  @Test
  void refillResetsTheBalanceWithoutAccumulating() throws Exception {
    Limiter limiter = open(refilled(5, 5));
    limiter.acquire(2).close();
    assertThat(limiter.currentReservoir()).hasValue(3);
    clock.advance(Duration.ofMillis(3500));
    assertThat(limiter.currentReservoir()).hasValue(5);
  }

  @Test
  void refillPhaseStaysAnchoredAtCreation() throws Exception {
    Limiter limiter = open(refilled(4, 4));
    clock.advance(Duration.ofMillis(1500));
    limiter.acquire(4).close();
    assertThat(limiter.currentReservoir()).hasValue(0);
    clock.advance(Duration.ofMillis(499));
    assertThat(limiter.currentReservoir()).as("before the 2 s boundary").hasValue(0);
    clock.advance(Duration.ofMillis(1));
    assertThat(limiter.currentReservoir()).as("at the 2 s boundary").hasValue(4);
  }

  @Test
  void refillSmallerThanTheHeadArmsNoTimer() throws Exception {
    Limiter limiter = open(refilled(0, 1));
    CompletableFuture<Integer> heavy =
        limiter.schedule(a -> 1, ScheduleOptions.builder().weight(2).build());
    assertThat(limiter.inspect().waiters()).hasSize(1);
    assertThat(clock.pendingTimers()).isZero();
    clock.advance(Duration.ofSeconds(5));
    assertThat(heavy).isNotDone();
    limiter.incrementReservoir(1);
    assertThat(await(heavy)).isEqualTo(1);
  }

  @Test
  void aRefillThatAdmitsTheHeadWakesItAtTheBoundary() throws Exception {
    Limiter limiter = open(refilled(0, 3));
    CompletableFuture<Long> two =
        limiter.schedule(a -> a.weight(), ScheduleOptions.builder().weight(2).build());
    settled(limiter);
    assertThat(clock.pendingTimers()).isEqualTo(1);
    clock.advance(SECOND.minusMillis(1));
    settled(limiter);
    assertThat(two).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(await(two)).isEqualTo(2);
    assertThat(limiter.currentReservoir()).hasValue(1);
  }

  @Test
  void unlimitedReservoirReadsEmpty() throws Exception {
    Limiter limiter = open(cap(2));
    limiter.acquire(2).close();
    assertThat(limiter.currentReservoir()).isEmpty();
    assertThat(limiter.inspect().reservoir()).isEmpty();
  }

  @Test
  void currentReservoirAppliesADueRefill() throws Exception {
    Limiter limiter = open(refilled(2, 9));
    clock.advance(SECOND);
    assertThat(limiter.currentReservoir()).hasValue(9);
    assertThat(limiter.inspect().reservoir()).hasValue(9);
  }

  @Test
  void incrementAcceptsNegativeAdjustments() throws Exception {
    Limiter limiter = open(tokens(5));
    assertThat(limiter.incrementReservoir(-7)).isEqualTo(-2);
    assertThat(limiter.tryAcquire(1)).isEmpty();
    assertThat(limiter.incrementReservoir(3)).isEqualTo(1);
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void incrementOnAnUnlimitedReservoirStartsFromZero() throws Exception {
    Limiter limiter = open(cap(3));
    assertThat(limiter.incrementReservoir(2)).isEqualTo(2);
    assertThat(limiter.currentReservoir()).hasValue(2);
    limiter.acquire(2).close();
    assertThat(limiter.tryAcquire(1)).isEmpty();
  }

  @Test
  void incrementOverflowIsRefusedAndTheBalanceKept() throws Exception {
    Limiter limiter = open(tokens(Long.MAX_VALUE - 5));
    assertThatThrownBy(() -> limiter.incrementReservoir(6))
        .isInstanceOf(AccountingOverflowException.class)
        .hasMessageContaining("6");
    assertThat(limiter.currentReservoir()).hasValue(Long.MAX_VALUE - 5);
    assertThat(limiter.incrementReservoir(Long.MIN_VALUE)).isEqualTo(-6);
    assertThatThrownBy(() -> limiter.incrementReservoir(Long.MIN_VALUE))
        .isInstanceOf(AccountingOverflowException.class);
    assertThat(limiter.currentReservoir()).hasValue(-6);
    limiter.incrementReservoir(7);
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void incrementWakesAWaiterThatNowFits() throws Exception {
    Limiter limiter = open(tokens(0));
    CompletableFuture<Integer> a = limiter.schedule(() -> 1);
    CompletableFuture<Integer> b = limiter.schedule(() -> 2);
    limiter.incrementReservoir(1);
    assertThat(await(a)).isEqualTo(1);
    assertThat(b).isNotDone();
    limiter.incrementReservoir(1);
    assertThat(await(b)).isEqualTo(2);
  }

  @Test
  void aRefusedAttemptSpendsNothing() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().maxConcurrent(1).reservoir(5).build());
    try (Lease held = limiter.acquire(1)) {
      assertThat(limiter.tryAcquire(1)).isEmpty();
      assertThat(limiter.currentReservoir()).hasValue(4);
    }
  }

  @Test
  void aWithdrawnRequestSpendsNothing() throws Exception {
    Limiter limiter = open(tokens(0));
    CompletableFuture<Integer> queued =
        limiter.schedule(a -> 1, ScheduleOptions.builder().weight(3).build());
    assertThat(queued.cancel(true)).isTrue();
    limiter.incrementReservoir(3);
    assertThat(limiter.currentReservoir()).hasValue(3);
    assertThat(limiter.inspect().waiters()).isEmpty();
  }

  @Test
  void anUnlimitedReservoirBecomesFiniteAtTheFirstRefill() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().reservoirRefresh(2, SECOND).build());
    assertThat(limiter.currentReservoir()).isEmpty();
    limiter.acquire(10).close();
    clock.advance(SECOND);
    assertThat(limiter.currentReservoir()).hasValue(2);
  }

  @Test
  void balanceAndRefillPhaseSurviveCloseAndReopen() throws Exception {
    Limiter first = open(refilled(6, 6));
    first.acquire(4).close();
    clock.advance(Duration.ofMillis(600));
    first.close();
    Limiter second = open(refilled(6, 6));
    assertThat(second.currentReservoir()).hasValue(2);
    clock.advance(Duration.ofMillis(400));
    assertThat(second.currentReservoir()).hasValue(6);
  }

  @Test
  void tokensAreNotRefundedOnReleaseOrFailure() throws Exception {
    Limiter limiter = open(tokens(5));
    limiter.acquire(2).close();
    CompletableFuture<Object> failing =
        limiter.schedule(
            a -> {
              throw new IllegalStateException("boom");
            },
            ScheduleOptions.builder().weight(2).build());
    awaitFailure(failing);
    assertThat(limiter.currentReservoir()).hasValue(1);
  }
}
