/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.LeaseExpiredException;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Leases: expiry, the admission record, fencing tokens, and safe release. */
public abstract class LeaseCases extends ConformanceCase {
  private static final Duration LIFE = Duration.ofSeconds(30);

  protected LeaseCases(StoreFactory stores) {
    super(stores);
  }

  private static LimiterConfig expiring(long cap) {
    return LimiterConfig.builder().maxConcurrent(cap).expiration(LIFE).build();
  }

  @Test
  void thePoolDefaultSetsTheExpiry() throws Exception {
    Limiter limiter = open(expiring(2));
    try (Lease lease = limiter.acquire(1)) {
      Admission a = lease.admission();
      assertThat(a.expiresAt()).contains(a.grantedAt().plus(LIFE));
    }
  }

  @Test
  void aRequestCanOverrideTheExpiry() throws Exception {
    Limiter limiter = open(expiring(2));
    Admission a =
        await(
            limiter.schedule(
                adm -> adm, ScheduleOptions.builder().expiration(Duration.ofSeconds(5)).build()));
    assertThat(a.expiresAt()).contains(a.grantedAt().plusSeconds(5));
  }

  @Test
  void aRequestCanHaveNoExpiry() throws Exception {
    Limiter limiter = open(expiring(2));
    Admission a =
        await(limiter.schedule(adm -> adm, ScheduleOptions.builder().noExpiration().build()));
    assertThat(a.expiresAt()).isEmpty();
  }

  @Test
  void leasesNeverExpireByDefault() throws Exception {
    Limiter limiter = open(cap(1));
    try (Lease lease = limiter.acquire(1)) {
      assertThat(lease.admission().expiresAt()).isEmpty();
      clock.advance(Duration.ofDays(400));
      assertThat(limiter.inspect().leases()).hasSize(1);
    }
  }

  @Test
  void expiryReturnsWeightButNotTokens() throws Exception {
    Limiter limiter =
        open(
            LimiterConfig.builder()
                .maxConcurrent(1)
                .reservoir(5)
                .expiration(Duration.ofSeconds(1))
                .build());
    Lease stale = limiter.acquire(1);
    clock.advance(Duration.ofSeconds(1));
    Optional<Lease> next = limiter.tryAcquire(1);
    assertThat(next).isPresent();
    assertThat(limiter.currentReservoir()).hasValue(3);
    assertThat(limiter.inspect().trace())
        .extracting(dev.sluice.TraceEvent::kind)
        .contains(dev.sluice.TraceEvent.Kind.EXPIRED);
    next.get().close();
    stale.close();
  }

  @Test
  void aWaiterIsAdmittedWhenTheHolderExpires() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(2)).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Instant> waiter =
        limiter.schedule(a -> a.grantedAt(), ScheduleOptions.defaults());
    clock.advance(Duration.ofMillis(1999));
    assertThat(waiter).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(await(waiter)).isEqualTo(holder.admission().grantedAt().plusSeconds(2));
    holder.close();
  }

  @Test
  void expiryNeitherStopsNorSettlesARunningCallback() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(1)).build());
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<String> slow =
        limiter.schedule(
            () -> {
              running.countDown();
              finish.await();
              return "finished";
            });
    await(running);
    clock.advance(Duration.ofSeconds(1));
    assertThat(await(limiter.schedule(() -> "replacement"))).isEqualTo("replacement");
    assertThat(slow).isNotDone();
    finish.countDown();
    assertThat(await(slow)).isEqualTo("finished");
  }

  @Test
  void aGrantThatExpiredBeforeItsCallbackStartedFailsAndIsReleased() throws Exception {
    HeldExecutor held = new HeldExecutor();
    Limiter limiter =
        open(
            LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(1)).build(),
            LimiterOptions.builder().executor(held).build());
    boolean[] ran = new boolean[1];
    CompletableFuture<Boolean> late = limiter.schedule(() -> ran[0] = true);
    settled(limiter);
    clock.advance(Duration.ofSeconds(1));
    held.runNext();
    Throwable failure = awaitFailure(late);
    assertThat(failure).isInstanceOf(LeaseExpiredException.class);
    assertThat(((LeaseExpiredException) failure).admission().orElseThrow().weight()).isEqualTo(1);
    assertThat(ran[0]).isFalse();
    assertThat(limiter.inspect().leases()).isEmpty();
    assertThat(limiter.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void theAdmissionDescribesTheGrant() throws Exception {
    Limiter limiter = open(expiring(5));
    clock.advance(Duration.ofMillis(1234));
    try (Lease lease = limiter.acquire(3)) {
      Admission a = lease.admission();
      assertThat(a.grantedAt()).isEqualTo(clock.instant());
      assertThat(a.weight()).isEqualTo(3);
      assertThat(a.leaseId()).isEqualTo(limiter.inspect().leases().get(0).leaseId());
      assertThat(a.fencingToken()).isPositive();
    }
  }

  @Test
  void fencingTokensStrictlyIncreaseAcrossReopen() throws Exception {
    Limiter first = open(cap(3));
    long t1;
    try (Lease lease = first.acquire(1)) {
      t1 = lease.admission().fencingToken();
    }
    long t2 = await(first.schedule(a -> a.fencingToken(), ScheduleOptions.defaults()));
    first.close();
    Limiter second = open(cap(3));
    long t3;
    try (Lease lease = second.acquire(1)) {
      t3 = lease.admission().fencingToken();
    }
    assertThat(t1).isLessThan(t2);
    assertThat(t2).isLessThan(t3);
  }

  @Test
  void aLateReleaseCannotFreeTheReplacement() throws Exception {
    Limiter limiter =
        open(LimiterConfig.builder().maxConcurrent(1).expiration(Duration.ofSeconds(1)).build());
    Lease stale = limiter.acquire(1);
    clock.advance(Duration.ofSeconds(1));
    Lease replacement = limiter.acquire(1);
    stale.close();
    assertThat(limiter.inspect().leases())
        .singleElement()
        .satisfies(l -> assertThat(l.leaseId()).isEqualTo(replacement.admission().leaseId()));
    assertThat(limiter.tryAcquire(1)).isEmpty();
    replacement.close();
  }

  @Test
  void closingALeaseTwiceReleasesOnce() throws Exception {
    Limiter limiter = open(cap(2));
    Lease a = limiter.acquire(1);
    Lease b = limiter.acquire(1);
    a.close();
    a.close();
    assertThat(limiter.inspect().activeWeight()).isEqualTo(1);
    assertThat(limiter.inspect().leases())
        .extracting(l -> l.leaseId())
        .containsExactly(b.admission().leaseId());
    b.close();
  }
}
