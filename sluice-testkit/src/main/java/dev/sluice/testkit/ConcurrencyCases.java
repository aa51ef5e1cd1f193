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
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Weighted max-concurrency: the cap, weights, unlimited pools and overflow-safe accounting. */
public abstract class ConcurrencyCases extends ConformanceCase {
  protected ConcurrencyCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void heldWeightNeverPassesTheCap() throws Exception {
    Limiter limiter = open(cap(2));
    Lease a = limiter.acquire(1);
    Lease b = limiter.acquire(1);
    assertThat(limiter.tryAcquire(1)).isEmpty();
    a.close();
    Optional<Lease> c = limiter.tryAcquire(1);
    assertThat(c).isPresent();
    assertThat(limiter.inspect().activeWeight()).isEqualTo(2);
    b.close();
    c.get().close();
    assertThat(limiter.inspect().activeWeight()).isZero();
  }

  @Test
  void weightsShareTheCap() throws Exception {
    Limiter limiter = open(cap(5));
    Lease three = limiter.acquire(3);
    Lease two = limiter.acquire(2);
    assertThat(limiter.tryAcquire(1)).isEmpty();
    assertThat(limiter.inspect().activeWeight()).isEqualTo(5);
    three.close();
    assertThat(limiter.tryAcquire(3)).isPresent().get().satisfies(Lease::close);
    two.close();
  }

  @Test
  void weightAboveTheCapIsRejectedAtOnce() {
    Limiter limiter = open(cap(5));
    ScheduleOptions six = ScheduleOptions.builder().weight(6).build();
    assertThatThrownBy(() -> limiter.schedule(a -> 1, six))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("weight")
        .hasMessageContaining("1..5")
        .hasMessageContaining("6");
    assertThatThrownBy(() -> limiter.acquire(6)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> limiter.tryAcquire(6)).isInstanceOf(IllegalArgumentException.class);
    assertThat(limiter.inspect().waiters()).isEmpty();
  }

  @Test
  void weightBelowOneIsRejectedAtOnce() {
    Limiter limiter = open(cap(5));
    assertThatThrownBy(() -> limiter.acquire(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("weight")
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> limiter.tryAcquire(-3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was -3");
    assertThatThrownBy(() -> ScheduleOptions.builder().weight(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("weight");
  }

  @Test
  void unlimitedConcurrencyAdmitsEverything() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().build());
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      leases.add(limiter.tryAcquire(1_000).orElseThrow());
    }
    assertThat(limiter.inspect().activeWeight()).isEqualTo(200_000);
    leases.forEach(Lease::close);
    assertThat(limiter.inspect().activeWeight()).isZero();
  }

  @Test
  void accountingOverflowRefusesOnlyThatRequest() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().build());
    Lease huge = limiter.acquire(Long.MAX_VALUE - 1);
    assertThatThrownBy(() -> limiter.acquire(2))
        .isInstanceOf(AccountingOverflowException.class)
        .hasMessageContaining(Long.toString(Long.MAX_VALUE - 1));
    CompletableFuture<Integer> scheduled =
        limiter.schedule(a -> 1, ScheduleOptions.builder().weight(2).build());
    assertThat(awaitFailure(scheduled)).isInstanceOf(AccountingOverflowException.class);
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
    assertThat(limiter.inspect().activeWeight()).isEqualTo(Long.MAX_VALUE - 1);
    huge.close();
    try (Lease two = limiter.acquire(2)) {
      assertThat(two.admission().weight()).isEqualTo(2);
    }
  }

  @Test
  void maximalWeightWithFiniteCapWaitsNormally() throws Exception {
    Limiter limiter = open(cap(Long.MAX_VALUE));
    Lease one = limiter.acquire(1);
    CompletableFuture<Long> big =
        limiter.schedule(a -> a.weight(), ScheduleOptions.builder().weight(Long.MAX_VALUE).build());
    assertThat(big).isNotDone();
    assertThat(limiter.inspect().waiters()).hasSize(1);
    one.close();
    assertThat(await(big)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void weightsAlsoSpendReservoirTokens() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().maxConcurrent(10).reservoir(10).build());
    try (Lease three = limiter.acquire(3)) {
      assertThat(three.admission().weight()).isEqualTo(3);
    }
    assertThat(limiter.currentReservoir()).hasValue(7);
  }

  @Test
  void inspectShowsEachLeaseWithItsOwnerAndWeight() throws Exception {
    Limiter limiter = open(cap(10));
    try (Lease a = limiter.acquire(2);
        Lease b = limiter.acquire(3)) {
      PoolSnapshot s = limiter.inspect();
      assertThat(s.activeWeight()).isEqualTo(5);
      assertThat(s.leases())
          .extracting(PoolSnapshot.LeaseInfo::leaseId, PoolSnapshot.LeaseInfo::weight)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(a.admission().leaseId(), 2L),
              org.assertj.core.groups.Tuple.tuple(b.admission().leaseId(), 3L));
      assertThat(s.leases()).allSatisfy(l -> assertThat(l.owner()).isNotBlank());
      assertThat(s.leases().get(0).owner()).isEqualTo(s.leases().get(1).owner());
      assertThat(s.config()).isEqualTo(cap(10));
    }
  }

  @Test
  void aRequestThatFitsIsAdmittedWithoutQueueing() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(cap(3), dev.sluice.LimiterOptions.builder().listener(events).build());
    assertThat(await(limiter.schedule(() -> "done"))).isEqualTo("done");
    // Listeners hear events in order on a thread of their own: once the GRANTED arrived, a
    // QUEUED before it would have too.
    events.awaitCount(dev.sluice.LimiterEvent.Kind.GRANTED, 1);
    assertThat(events.count(dev.sluice.LimiterEvent.Kind.QUEUED)).isZero();
    assertThat(events.count(dev.sluice.LimiterEvent.Kind.GRANTED)).isEqualTo(1);
    assertThat(limiter.inspect().trace())
        .extracting(dev.sluice.TraceEvent::kind)
        .containsSubsequence(
            dev.sluice.TraceEvent.Kind.ADMITTED, dev.sluice.TraceEvent.Kind.RELEASED);
  }
}
