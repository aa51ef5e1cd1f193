/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AccountingOverflowException;
import dev.sluice.BackendFailureException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A permanently failing store stops admissions while release, inspect and close keep working; a
 * transient failure fails what was pending, and the limiter recovers by itself, never holding or
 * admitting more than the cap.
 */
public abstract class FailureCases extends ConformanceCase {
  protected FailureCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void aStoreFailureStopsAdmissionsButNotReleaseInspectOrClose() throws Exception {
    FailingStore failing = new FailingStore(store());
    Limiter limiter = Limiter.open(failing, cap(1));
    Lease held = limiter.acquire(1);
    CompletableFuture<Integer> pending = limiter.schedule(() -> 1);
    failing.failNext(1);
    assertThatThrownBy(() -> limiter.tryAcquire(1)).isInstanceOf(BackendFailureException.class);
    assertThat(awaitFailure(pending)).isInstanceOf(BackendFailureException.class);
    assertThat(awaitFailure(limiter.schedule(() -> 2))).isInstanceOf(BackendFailureException.class);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(BackendFailureException.class);
    held.close();
    assertThat(limiter.inspect().leases()).isEmpty();
    limiter.close();
    Limiter fresh = track(Limiter.open(store(), cap(1)));
    assertThat(fresh.inspect().leases()).isEmpty();
    assertThat(fresh.inspect().waiters()).isEmpty();
    assertThat(fresh.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void aFailedReleaseFailsTheFutureButTheLimiterStillCloses() throws Exception {
    FailingStore failing = new FailingStore(store());
    Limiter limiter = Limiter.open(failing, cap(1));
    CompletableFuture<String> f =
        limiter.schedule(
            () -> {
              failing.failNext(1);
              return "ran";
            });
    assertThat(awaitFailure(f)).isInstanceOf(BackendFailureException.class);
    limiter.close();
  }

  @Test
  void aRecoverableRefusalDoesNotPoisonThePool() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().reservoir(Long.MAX_VALUE).build());
    assertThatThrownBy(() -> limiter.incrementReservoir(1))
        .isInstanceOf(AccountingOverflowException.class);
    assertThatThrownBy(() -> limiter.acquire(0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(await(limiter.schedule(() -> "fine"))).isEqualTo("fine");
    assertThat(limiter.currentReservoir()).hasValue(Long.MAX_VALUE - 1);
  }

  @Test
  void anotherOwnerOfThePoolIsWokenWhenThisOneFreesCapacity() throws Exception {
    Limiter first = open(cap(1));
    Limiter second = openSecondOwner(cap(1));
    Lease held = first.acquire(1);
    CompletableFuture<String> waiting = second.schedule(() -> "woken");
    held.close();
    assertThat(await(waiting)).isEqualTo("woken");
    Lease heldBySecond = second.acquire(1);
    CompletableFuture<String> back = first.schedule(() -> "back");
    heldBySecond.close();
    assertThat(await(back)).isEqualTo("back");
  }

  @Test
  void aTransientFailureFailsPendingRequestsAndTheLimiterRecoversWithoutAReopen() throws Exception {
    FailingStore failing = new FailingStore(store());
    Limiter limiter = track(Limiter.open(failing, cap(1)));
    Lease held = limiter.acquire(1);
    CompletableFuture<Integer> pending = limiter.schedule(() -> 1);
    settled(limiter);
    failing.failNextTransiently(1);
    assertThatThrownBy(() -> limiter.tryAcquire(1))
        .isInstanceOfSatisfying(
            BackendFailureException.class,
            e -> assertThat(e.kind()).isEqualTo(BackendFailureException.Kind.TRANSIENT));
    assertThat(awaitFailure(pending)).isInstanceOf(BackendFailureException.class);
    held.close();
    assertThat(await(limiter.schedule(() -> "recovered"))).isEqualTo("recovered");
    PoolSnapshot after = limiter.inspect();
    assertThat(after.leases()).isEmpty();
    assertThat(after.waiters()).as("the failed request left nothing queued").isEmpty();
  }

  @Test
  void aRequestWhoseWithdrawalFailedTooIsTakenBackBeforeTheNextCommand() throws Exception {
    FailingStore failing = new FailingStore(store());
    Limiter limiter = track(Limiter.open(failing, cap(1)));
    Limiter other = open(cap(1));
    Lease held = limiter.acquire(1);
    CompletableFuture<Integer> pending = limiter.schedule(() -> 1);
    settled(limiter);
    // The first failure fails the pending request; its withdrawal fails too and stays owed.
    failing.failNextTransiently(2);
    assertThatThrownBy(() -> limiter.tryAcquire(1)).isInstanceOf(BackendFailureException.class);
    assertThat(awaitFailure(pending)).isInstanceOf(BackendFailureException.class);
    assertThat(other.inspect().waiters()).as("still in the store, owed").hasSize(1);
    held.close();
    assertThat(other.inspect().waiters()).as("taken back before the release").isEmpty();
    assertThat(other.inspect().leases()).as("the failed request never got the unit").isEmpty();
    assertThat(other.tryAcquire(1)).isPresent().get().satisfies(Lease::close);
  }

  @Test
  void aLeaseWhoseReleaseFailedTransientlyIsReleasedWhenTheStoreAnswersAgain() throws Exception {
    FailingStore failing = new FailingStore(store());
    Limiter limiter = track(Limiter.open(failing, cap(1)));
    Limiter other = open(cap(1));
    Lease held = limiter.acquire(1);
    failing.failNextTransiently(1);
    assertThatThrownBy(held::close).isInstanceOf(BackendFailureException.class);
    assertThat(other.inspect().leases()).as("the release did not reach the store").hasSize(1);
    // Idle: the retry timer takes it back once its computed deadline passes.
    clock.advance(java.time.Duration.ofSeconds(1));
    assertThat(await(other.schedule(() -> "free"))).isEqualTo("free");
  }
}
