/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@code minTime}: spacing between admissions, shared and never refunded. */
public abstract class SpacingCases extends ConformanceCase {
  private static final Duration GAP = Duration.ofMillis(100);

  protected SpacingCases(StoreFactory stores) {
    super(stores);
  }

  private static LimiterConfig spaced() {
    return LimiterConfig.builder().minTime(GAP).build();
  }

  @Test
  void secondAdmissionWaitsForMinTime() throws Exception {
    Limiter limiter = open(spaced());
    limiter.acquire(1).close();
    CompletableFuture<Instant> second =
        limiter.schedule(a -> a.grantedAt(), ScheduleOptions.defaults());
    clock.advance(GAP.minusMillis(1));
    assertThat(second).isNotDone();
    assertThat(limiter.inspect().waiters()).hasSize(1);
    clock.advance(Duration.ofMillis(1));
    assertThat(await(second)).isEqualTo(Instant.parse("2026-01-01T00:00:00.100Z"));
  }

  @Test
  void releaseDoesNotRefundSpacing() throws Exception {
    Limiter limiter = open(spaced());
    limiter.acquire(1).close();
    assertThat(limiter.tryAcquire(1)).isEmpty();
    clock.advance(GAP);
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void expiryDoesNotRefundSpacing() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().minTime(GAP).expiration(Duration.ofMillis(10)).build());
    Lease lease = limiter.acquire(1);
    clock.advance(Duration.ofMillis(10));
    assertThat(limiter.inspect().leases()).isEmpty();
    assertThat(limiter.tryAcquire(1)).isEmpty();
    clock.advance(Duration.ofMillis(90));
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
    lease.close();
  }

  @Test
  void failureDoesNotRefundSpacing() throws Exception {
    Limiter limiter = open(spaced());
    CompletableFuture<Object> failing =
        limiter.schedule(
            () -> {
              throw new IllegalStateException("boom");
            });
    assertThat(awaitFailure(failing)).hasMessage("boom");
    assertThat(limiter.tryAcquire(1)).isEmpty();
  }

  @Test
  void withdrawnRequestSpendsNoSpacing() throws Exception {
    Limiter limiter = open(spaced());
    limiter.acquire(1).close();
    CompletableFuture<Integer> withdrawn = limiter.schedule(() -> 1);
    assertThat(withdrawn.cancel(false)).isTrue();
    clock.advance(GAP);
    assertThat(limiter.tryAcquire(1))
        .as("the slot at 100 ms is still free")
        .isPresent()
        .get()
        .satisfies(Lease::close);
  }

  @Test
  void waitingForSpacingArmsOneTimerAndNoOther() throws Exception {
    Limiter limiter = open(spaced());
    limiter.acquire(1).close();
    assertThat(clock.pendingTimers()).isZero();
    CompletableFuture<Integer> next = limiter.schedule(() -> 1);
    settled(limiter);
    assertThat(clock.pendingTimers()).isEqualTo(1);
    assertThat(clock.pendingDueNanos()).containsExactly(clock.monotonicNanos() + GAP.toNanos());
    clock.advance(GAP);
    assertThat(await(next)).isEqualTo(1);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void spacingSurvivesCloseAndReopen() throws Exception {
    Limiter first = open(spaced());
    first.acquire(1).close();
    first.close();
    Limiter second = open(spaced());
    assertThat(second.tryAcquire(1)).isEmpty();
    clock.advance(GAP);
    assertThat(second.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void queuedAdmissionsAreAtLeastMinTimeApart() throws Exception {
    Limiter limiter = open(spaced());
    List<CompletableFuture<Admission>> futures = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      futures.add(limiter.schedule(a -> a, ScheduleOptions.defaults()));
    }
    settled(limiter);
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMillis(37));
      settled(limiter);
      clock.advance(Duration.ofMillis(63));
      settled(limiter);
    }
    Instant previous = null;
    for (CompletableFuture<Admission> f : futures) {
      Instant granted = await(f).grantedAt();
      if (previous != null) {
        assertThat(Duration.between(previous, granted)).isGreaterThanOrEqualTo(GAP);
      }
      previous = granted;
    }
  }

  @Test
  void spacingAppliesAcrossLimitersOfOnePool() throws Exception {
    Limiter a = open(spaced());
    Limiter b = open(spaced());
    a.acquire(1).close();
    assertThat(b.tryAcquire(1)).isEmpty();
    clock.advance(GAP);
    assertThat(b.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
    assertThat(a.tryAcquire(1)).isEmpty();
  }
}
