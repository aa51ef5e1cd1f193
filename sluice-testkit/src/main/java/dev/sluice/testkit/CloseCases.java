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
import dev.sluice.LimiterConfig;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import dev.sluice.TraceEvent;
import java.time.Duration;
import java.util.List;
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
  void aNestedCallOfAnotherLimiterKeepsTheOuterCallbackFromClosingItsOwn() throws Exception {
    Limiter outer = open(cap(1));
    Limiter inner = track(Limiter.open(storeFactory().create(poolName + "-inner", clock), cap(1)));
    Throwable refused =
        outer.call(
            () -> {
              inner.call(() -> "nested");
              try {
                outer.close();
                return null;
              } catch (IllegalStateException e) {
                return e;
              }
            });
    assertThat(refused).isInstanceOf(IllegalStateException.class);
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

  @Test
  void aContinuationOfTheLimitersOwnFutureMayCloseIt() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<String> ran = limiter.schedule(() -> "ran");
    CompletableFuture<Void> closedAfterRun = ran.thenRun(limiter::close);
    holder.close();
    await(closedAfterRun);
    assertThat(ran).isCompletedWithValue("ran");
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(LimiterClosedException.class);
  }

  /** A limiter whose next admission waits a second for spacing, so requests queue. */
  private Limiter spacedAndJustAdmitted() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().minTime(Duration.ofSeconds(1)).build());
    limiter.acquire(1).close();
    return limiter;
  }

  @Test
  void aContinuationOfATimedOutFutureMayCloseTheLimiter() throws Exception {
    Limiter limiter = spacedAndJustAdmitted();
    CompletableFuture<String> timedOut =
        limiter.schedule(
            a -> "never", ScheduleOptions.builder().queueTimeout(Duration.ofMillis(5)).build());
    CompletableFuture<Void> closed = timedOut.handle((v, e) -> e).thenRun(limiter::close);
    clock.advance(Duration.ofMillis(5));
    await(closed);
    assertThat(awaitFailure(timedOut)).isInstanceOf(QueueTimeoutException.class);
  }

  @Test
  void aContinuationOfACancelledFutureMayCloseTheLimiter() throws Exception {
    Limiter limiter = spacedAndJustAdmitted();
    CompletableFuture<String> cancelled = limiter.schedule(() -> "never");
    CompletableFuture<Void> closed = cancelled.handle((v, e) -> e).thenRun(limiter::close);
    assertThat(cancelled.cancel(true)).isTrue();
    await(closed);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(LimiterClosedException.class);
  }

  @Test
  void closeRejectsQueuedRequestsWithoutGrantingAnyOfThemOnTheWay() throws Exception {
    LimiterConfig config = LimiterConfig.builder().maxConcurrent(2).reservoir(10).build();
    Limiter other = open(config);
    Limiter closing = open(config);
    Lease heldByOther = other.acquire(1);
    CompletableFuture<String> heavyHead =
        closing.schedule(a -> "heavy", ScheduleOptions.builder().weight(2).build());
    CompletableFuture<String> light = closing.schedule(() -> "light");
    CompletableFuture<String> otherBehind = other.schedule(() -> "other");
    closing.close();
    assertThat(awaitFailure(heavyHead)).isInstanceOf(LimiterClosedException.class);
    assertThat(awaitFailure(light)).isInstanceOf(LimiterClosedException.class);
    assertThat(await(otherBehind)).isEqualTo("other");
    heldByOther.close();
    // Only the two requests of the other limiter were ever admitted and spent tokens.
    assertThat(other.currentReservoir()).hasValue(8);
    assertThat(other.inspect().trace())
        .filteredOn(e -> e.kind() == TraceEvent.Kind.ADMITTED)
        .hasSize(2);
  }

  @Test
  void requestsRacingCloseEitherRunOrAreRejectedAndNothingLeaks() throws Exception {
    for (int round = 0; round < 50; round++) {
      Limiter limiter = open(cap(1));
      CountDownLatch go = new CountDownLatch(1);
      List<CompletableFuture<Integer>> futures = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread submitter =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 20; i++) {
                  futures.add(limiter.schedule(() -> 1));
                }
              });
      submitter.start();
      go.countDown();
      limiter.close();
      submitter.join(SAFETY.toMillis());
      for (CompletableFuture<Integer> f : futures) {
        assertThat(f).as("round %d", round).isDone();
        if (f.isCompletedExceptionally()) {
          assertThat(awaitFailure(f)).isInstanceOf(LimiterClosedException.class);
        }
      }
      Limiter probe = open(cap(1));
      assertThat(probe.inspect().leases()).as("round %d", round).isEmpty();
      assertThat(probe.inspect().waiters()).as("round %d", round).isEmpty();
      probe.close();
    }
  }
}
