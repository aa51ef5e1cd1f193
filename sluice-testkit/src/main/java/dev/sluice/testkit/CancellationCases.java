/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Completing a schedule future before its callback starts withdraws the request. */
public abstract class CancellationCases extends ConformanceCase {
  protected CancellationCases(StoreFactory stores) {
    super(stores);
  }

  private void assertWithdrawn(Limiter limiter, Lease holder, AtomicInteger runs) throws Exception {
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
    assertThat(await(limiter.schedule(() -> "after"))).isEqualTo("after");
    assertThat(runs).hasValue(0);
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void cancelBeforeStartWithdraws() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    assertThat(f.cancel(true)).isTrue();
    assertThat(f).isCancelled();
    assertWithdrawn(limiter, holder, runs);
  }

  @Test
  void completeBeforeStartWithdraws() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    assertThat(f.complete(42)).isTrue();
    assertThat(f.join()).isEqualTo(42);
    assertWithdrawn(limiter, holder, runs);
  }

  @Test
  void completeExceptionallyBeforeStartWithdraws() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    IllegalStateException mine = new IllegalStateException("caller gave up");
    assertThat(f.completeExceptionally(mine)).isTrue();
    assertThat(awaitFailure(f)).isSameAs(mine);
    assertWithdrawn(limiter, holder, runs);
  }

  @Test
  void orTimeoutBeforeStartWithdraws() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    f.orTimeout(1, TimeUnit.MILLISECONDS);
    assertThat(awaitFailure(f)).isInstanceOf(TimeoutException.class);
    assertWithdrawn(limiter, holder, runs);
  }

  @Test
  void completingAfterTheStartChangesNothing() throws Exception {
    Limiter limiter = open(cap(1));
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<String> f =
        limiter.schedule(
            () -> {
              running.countDown();
              finish.await();
              return "real";
            });
    await(running);
    assertThat(f.cancel(true)).isFalse();
    assertThat(f.complete("fake")).isFalse();
    assertThat(f.completeExceptionally(new IllegalStateException())).isFalse();
    assertThat(f).isNotDone();
    finish.countDown();
    assertThat(await(f)).isEqualTo("real");
  }

  @Test
  void aCancelThatRacesAGrantReleasesTheGrant() throws Exception {
    HeldExecutor held = new HeldExecutor();
    Limiter limiter = open(cap(1), LimiterOptions.builder().executor(held).build());
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    holder.close();
    assertThat(held.heldCount()).as("granted, not yet started").isEqualTo(1);
    assertThat(f.cancel(false)).isTrue();
    held.runNext();
    assertThat(runs).hasValue(0);
    assertThat(limiter.inspect().leases()).isEmpty();
    assertThat(f).isCancelled();
  }

  @Test
  void aGrantWithdrawnBeforeItsCallbackStartedSpendsNeitherTokensNorSpacing() throws Exception {
    HeldExecutor held = new HeldExecutor();
    Limiter limiter =
        open(
            LimiterConfig.builder()
                .maxConcurrent(1)
                .minTime(Duration.ofSeconds(1))
                .reservoir(5)
                .build(),
            LimiterOptions.builder().executor(held).build());
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    settled(limiter);
    assertThat(held.heldCount()).as("granted, not yet started").isEqualTo(1);
    assertThat(limiter.currentReservoir()).hasValue(4);
    assertThat(f.cancel(false)).isTrue();
    assertThat(limiter.currentReservoir()).hasValue(5);
    Optional<Lease> next = limiter.tryAcquire(1);
    assertThat(next).as("the spacing slot was given back").isPresent();
    next.get().close();
    held.runNext();
    assertThat(runs).hasValue(0);
  }

  @Test
  void aQueueTimeoutCompletesTheFutureOnTheExecutorNotTheTimerThread() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> f =
        limiter.schedule(
            a -> 1, ScheduleOptions.builder().queueTimeout(Duration.ofMillis(3)).build());
    CompletableFuture<Thread> completedOn = f.handle((v, e) -> Thread.currentThread());
    clock.advance(Duration.ofMillis(3));
    assertThat(await(completedOn)).isNotSameAs(Thread.currentThread());
    assertThat(awaitFailure(f)).isInstanceOf(QueueTimeoutException.class);
    holder.close();
  }

  @Test
  void theFutureCannotBeObtruded() throws Exception {
    Limiter limiter = open(cap(1));
    CompletableFuture<Integer> f = limiter.schedule(() -> 1);
    assertThatThrownBy(() -> f.obtrudeValue(2)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(await(f)).isEqualTo(1);
  }

  @Test
  void theFutureCompletesOnlyAfterTheLeaseIsReleased() throws Exception {
    Limiter limiter = open(cap(1));
    CompletableFuture<Long> activeAtCompletion =
        limiter.schedule(() -> "x").thenApply(x -> limiter.inspect().activeWeight());
    assertThat(await(activeAtCompletion)).isZero();
  }

  @Test
  void aThrowingCallbackReleasesAndPassesTheOriginalException() throws Exception {
    Limiter limiter = open(cap(1));
    Exception original = new java.io.IOException("original");
    CompletableFuture<Object> f =
        limiter.schedule(
            () -> {
              throw original;
            });
    assertThat(awaitFailure(f)).isSameAs(original);
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void callbacksNeverRunOnTheCallingThread() throws Exception {
    Limiter limiter = open(cap(2));
    Thread caller = Thread.currentThread();
    assertThat(await(limiter.schedule(Thread::currentThread))).isNotSameAs(caller);
  }

  @Test
  void callRunsOnTheCallingThreadAndReleasesAfterAFailure() throws Exception {
    Limiter limiter = open(cap(1));
    assertThat(limiter.call(Thread::currentThread)).isSameAs(Thread.currentThread());
    java.io.IOException original = new java.io.IOException("from call");
    assertThatThrownBy(
            () ->
                limiter.call(
                    () -> {
                      throw original;
                    }))
        .isSameAs(original);
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void dependentStagesDoNotWithdrawTheRequest() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> f = limiter.schedule(runs::incrementAndGet);
    CompletableFuture<Integer> dependent = f.thenApply(x -> x);
    assertThat(dependent.cancel(true)).isTrue();
    holder.close();
    assertThat(await(f)).isEqualTo(1);
    assertThat(dependent).isCancelled();
  }
}
