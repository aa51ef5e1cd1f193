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
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.QueueTimeoutException;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The waiting order, queue timeouts and the blocking forms. */
public abstract class QueueCases extends ConformanceCase {
  protected QueueCases(StoreFactory stores) {
    super(stores);
  }

  private static ScheduleOptions timeout(Duration d) {
    return ScheduleOptions.builder().queueTimeout(d).build();
  }

  @Test
  void waitersStartInArrivalOrder() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<CompletableFuture<Integer>> futures = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      int n = i;
      futures.add(limiter.schedule(() -> order.add(n) ? n : -1));
    }
    assertThat(limiter.inspect().waiters()).hasSize(6);
    holder.close();
    for (CompletableFuture<Integer> f : futures) {
      await(f);
    }
    assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
  }

  @Test
  void aHeavyHeadIsNotOvertakenByLighterRequests() throws Exception {
    Limiter limiter = open(cap(4));
    Lease three = limiter.acquire(3);
    CompletableFuture<Long> heavy =
        limiter.schedule(a -> a.weight(), ScheduleOptions.builder().weight(2).build());
    assertThat(limiter.tryAcquire(1)).as("fits, but someone waits").isEmpty();
    CompletableFuture<Long> light = limiter.schedule(a -> a.weight(), ScheduleOptions.defaults());
    assertThat(light).isNotDone();
    assertThat(limiter.inspect().waiters()).extracting(w -> w.weight()).containsExactly(2L, 1L);
    three.close();
    assertThat(await(heavy)).isEqualTo(2);
    assertThat(await(light)).isEqualTo(1);
  }

  @Test
  void aQueueTimeoutFailsTheRequestAndLeavesTheQueue() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> waiting = limiter.schedule(a -> 1, timeout(Duration.ofSeconds(5)));
    clock.advance(Duration.ofMillis(4999));
    assertThat(waiting).isNotDone();
    clock.advance(Duration.ofMillis(1));
    Throwable failure = awaitFailure(waiting);
    assertThat(failure).isInstanceOf(QueueTimeoutException.class);
    assertThat(((QueueTimeoutException) failure).queueTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void aQueueTimeoutNeverStopsRunningWork() throws Exception {
    Limiter limiter = open(cap(1));
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<String> work =
        limiter.schedule(
            a -> {
              running.countDown();
              finish.await();
              return "done";
            },
            timeout(Duration.ofSeconds(1)));
    await(running);
    clock.advance(Duration.ofSeconds(10));
    finish.countDown();
    assertThat(await(work)).isEqualTo("done");
  }

  @Test
  void anOverdueGrantStillTimesOutAndIsReleased() throws Exception {
    HeldExecutor held = new HeldExecutor();
    Limiter limiter = open(cap(1), LimiterOptions.builder().executor(held).build());
    Lease holder = limiter.acquire(1);
    boolean[] ran = new boolean[1];
    CompletableFuture<Boolean> late =
        limiter.schedule(a -> ran[0] = true, timeout(Duration.ofSeconds(2)));
    settled(limiter);
    clock.advance(Duration.ofSeconds(1));
    holder.close();
    settled(limiter);
    assertThat(held.heldCount()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    held.runNext();
    assertThat(awaitFailure(late)).isInstanceOf(QueueTimeoutException.class);
    assertThat(ran[0]).isFalse();
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void invalidQueueTimeoutsAreRejectedBeforeQueueing() {
    assertThatThrownBy(() -> ScheduleOptions.builder().queueTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queueTimeout");
    assertThatThrownBy(() -> ScheduleOptions.builder().queueTimeout(Duration.ofMillis(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-0.005S");
    assertThatThrownBy(() -> ScheduleOptions.builder().queueTimeout(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void acquireBlocksUntilCapacityIsFreed() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(cap(1), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Long> blocked =
        CompletableFuture.supplyAsync(
            () -> {
              try (Lease l = limiter.acquire(1)) {
                return l.admission().leaseId();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    events.awaitCount(LimiterEvent.Kind.QUEUED, 1);
    assertThat(blocked).isNotDone();
    holder.close();
    assertThat(await(blocked)).isGreaterThan(holder.admission().leaseId());
  }

  /** Calls {@code tryAcquire(1, wait)} on another thread. */
  private static CompletableFuture<Optional<Lease>> tryAcquireElsewhere(
      Limiter limiter, Duration wait) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return limiter.tryAcquire(1, wait);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  void tryAcquireWithAWaitGivesUpAtTheDeadline() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(cap(1), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Optional<Lease>> attempt =
        tryAcquireElsewhere(limiter, Duration.ofSeconds(3));
    events.awaitCount(LimiterEvent.Kind.QUEUED, 1);
    clock.advance(Duration.ofSeconds(3));
    assertThat(await(attempt)).isEmpty();
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
  }

  @Test
  void tryAcquireWithAWaitSucceedsWhenReleasedInTime() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(cap(1), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Optional<Lease>> attempt =
        tryAcquireElsewhere(limiter, Duration.ofSeconds(3));
    events.awaitCount(LimiterEvent.Kind.QUEUED, 1);
    clock.advance(Duration.ofSeconds(2));
    holder.close();
    Optional<Lease> got = await(attempt);
    assertThat(got).isPresent();
    got.get().close();
  }

  @Test
  void anInterruptedAcquireHoldsNothing() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(cap(1), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread waiter =
        new Thread(
            () -> {
              try {
                limiter.acquire(1).close();
                outcome.complete(null);
              } catch (Throwable e) {
                outcome.complete(e);
              }
            });
    waiter.start();
    events.awaitCount(LimiterEvent.Kind.QUEUED, 1);
    waiter.interrupt();
    assertThat(await(outcome)).isInstanceOf(InterruptedException.class);
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void tryAcquireWithoutWaitNeverQueues() throws Exception {
    Limiter limiter = open(cap(1));
    Lease holder = limiter.acquire(1);
    assertThat(limiter.tryAcquire(1, Duration.ZERO)).isEmpty();
    assertThat(limiter.tryAcquire(1, Duration.ofSeconds(-1))).isEmpty();
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
  }

  @Test
  void waitersOfSeveralLimitersShareOneOrder() throws Exception {
    Limiter a = open(cap(1));
    Limiter b = open(cap(1));
    Lease holder = a.acquire(1);
    List<String> order = new CopyOnWriteArrayList<>();
    CompletableFuture<Boolean> fromB = b.schedule(() -> order.add("b1"));
    CompletableFuture<Boolean> fromA = a.schedule(() -> order.add("a1"));
    CompletableFuture<Boolean> fromB2 = b.schedule(() -> order.add("b2"));
    holder.close();
    await(fromB);
    await(fromA);
    await(fromB2);
    assertThat(order).containsExactly("b1", "a1", "b2");
  }

  @Test
  void expiredWaitersAreDroppedByTheStore() throws Exception {
    Limiter limiter = open(LimiterConfig.builder().maxConcurrent(1).build());
    Lease holder = limiter.acquire(1);
    CompletableFuture<Integer> w = limiter.schedule(a -> 1, timeout(Duration.ofSeconds(1)));
    clock.advance(Duration.ofSeconds(1));
    awaitFailure(w);
    assertThat(limiter.inspect().waiters()).isEmpty();
    holder.close();
  }
}
