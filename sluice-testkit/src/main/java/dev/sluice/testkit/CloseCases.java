/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterClosedException;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Closing: reject or drain, first call decides, never touching other limiters. */
public abstract class CloseCases extends ConformanceCase {
  protected CloseCases(StoreFactory stores) {
    super(stores);
  }

  @Test
  void closeRejectsQueuedWorkAndAwaitsRunningWork() throws Exception {
    Limiter limiter = open(cap(1));
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<String> first =
        limiter.schedule(
            () -> {
              running.countDown();
              finish.await();
              return "first";
            });
    await(running);
    CompletableFuture<String> queued = limiter.schedule(() -> "queued");
    CompletionStage<Void> closing = limiter.closeAsync();
    assertThat(awaitFailure(queued)).isInstanceOf(LimiterClosedException.class);
    assertThat(closing.toCompletableFuture()).isNotDone();
    finish.countDown();
    await(closing.toCompletableFuture());
    assertThat(await(first)).isEqualTo("first");
  }

  @Test
  void drainFinishesQueuedWork() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<String> queued = limiter.schedule(() -> "queued");
    CompletionStage<Void> closing = limiter.drainAndCloseAsync();
    assertThat(closing.toCompletableFuture()).isNotDone();
    holder.close();
    assertThat(await(queued)).isEqualTo("queued");
    await(closing.toCompletableFuture());
  }

  @Test
  void theFirstCloseFixesTheModeAndEveryCallSharesItsCompletion() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<String> queued = limiter.schedule(() -> "drained");
    CompletionStage<Void> drain = limiter.drainAndCloseAsync();
    CompletionStage<Void> close = limiter.closeAsync();
    assertThat((Object) close).isSameAs(drain);
    assertThat((Object) limiter.drainAndCloseAsync()).isSameAs(drain);
    holder.close();
    assertThat(await(queued)).isEqualTo("drained");
    limiter.close();
    assertThat(drain.toCompletableFuture()).isCompleted();
  }

  @Test
  void newWorkIsRefusedOnceClosing() throws Exception {
    Limiter limiter = open(cap(1));
    limiter.close();
    assertThat(awaitFailure(limiter.schedule(() -> 1))).isInstanceOf(LimiterClosedException.class);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(LimiterClosedException.class);
    assertThatThrownBy(() -> limiter.tryAcquire(1)).isInstanceOf(LimiterClosedException.class);
    assertThatThrownBy(() -> limiter.call(() -> 1)).isInstanceOf(LimiterClosedException.class);
    assertThatThrownBy(limiter::inspect).isInstanceOf(LimiterClosedException.class);
    assertThatThrownBy(() -> limiter.incrementReservoir(1))
        .isInstanceOf(LimiterClosedException.class);
  }

  @Test
  void closingFromOwnCallbackIsRefused() throws Exception {
    Limiter limiter = open(cap(1));
    CompletableFuture<Throwable> fromSchedule =
        limiter.schedule(
            () -> {
              try {
                limiter.close();
                return null;
              } catch (IllegalStateException e) {
                return e;
              }
            });
    assertThat(await(fromSchedule)).hasMessageContaining("cannot close its own limiter");
    assertThatThrownBy(() -> limiter.call(limiter::drainAndCloseAsync))
        .isInstanceOf(IllegalStateException.class);
    assertThat(await(limiter.schedule(() -> "still open"))).isEqualTo("still open");
  }

  @Test
  void closingOneLimiterLeavesAnotherOnThePoolAlone() throws Exception {
    Limiter a = open(cap(1));
    Limiter b = open(cap(1));
    Lease heldByB = b.acquire(1);
    CompletableFuture<String> queuedOnA = a.schedule(() -> "a");
    CompletableFuture<String> queuedOnB = b.schedule(() -> "b");
    a.close();
    assertThat(awaitFailure(queuedOnA)).isInstanceOf(LimiterClosedException.class);
    assertThat(b.inspect().leases()).hasSize(1);
    assertThat(b.inspect().waiters()).hasSize(1);
    heldByB.close();
    assertThat(await(queuedOnB)).isEqualTo("b");
  }

  @Test
  void closeWaitsForHeldLeases() throws Exception {
    Limiter limiter = open(cap(2));
    Lease lease = limiter.acquire(1);
    CompletionStage<Void> closing = limiter.closeAsync();
    assertThat(closing.toCompletableFuture()).isNotDone();
    lease.close();
    await(closing.toCompletableFuture());
  }

  @Test
  void closeWaitsForTheCleanupOfATimedOutRequest() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w =
        limiter.schedule(
            a -> 1, ScheduleOptions.builder().queueTimeout(Duration.ofMillis(10)).build());
    clock.advance(Duration.ofMillis(10));
    awaitFailure(w);
    holder.close();
    limiter.close();
    Limiter reopened = open(cap(1));
    assertThat(reopened.inspect().leases()).isEmpty();
    assertThat(reopened.inspect().waiters()).isEmpty();
  }

  @Test
  void aPoolCanBeReopenedAfterEveryClose() throws Exception {
    for (int i = 0; i < 8; i++) {
      Limiter limiter = open(cap(2));
      assertThat(await(limiter.schedule(() -> "ok"))).isEqualTo("ok");
      limiter.close();
    }
    Limiter last = open(cap(2));
    assertThat(last.inspect().leases()).isEmpty();
  }
}
