/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Admission;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.PoolSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Local hand-offs ({@link LimiterConfig.Builder#localHandOffs(int)}): a JVM keeps one request
 * waiting at the pool and holds the others; a released unit goes to the earliest held request (or,
 * with none held, to the one at the pool) up to the quota per grant, then back to the pool.
 */
public abstract class HandOffCases extends ConformanceCase {
  protected HandOffCases(StoreFactory stores) {
    super(stores);
  }

  private static LimiterConfig handOffs(long cap, int quota) {
    return LimiterConfig.builder().maxConcurrent(cap).localHandOffs(quota).build();
  }

  @Test
  void aReleasedUnitServesThisJvmsWaitersInOrderThenGoesBackToThePool() throws Exception {
    Limiter limiter = open(handOffs(1, 2));
    Lease holder = limiter.acquire(1);
    Admission first = holder.admission();
    List<CompletableFuture<Admission>> waiters = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      waiters.add(limiter.schedule(a -> a, dev.sluice.ScheduleOptions.defaults()));
    }
    holder.close();
    // The first request waits at the pool; the two held in this JVM are passed the unit.
    Admission second = await(waiters.get(1));
    Admission third = await(waiters.get(2));
    Admission fromPool = await(waiters.get(0));
    assertThat(second.leaseId()).as("a pass keeps the lease").isEqualTo(first.leaseId());
    assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
    assertThat(third.leaseId()).isEqualTo(first.leaseId());
    assertThat(third.fencingToken()).isEqualTo(first.fencingToken() + 2);
    assertThat(fromPool.leaseId()).as("after two passes a new grant").isNotEqualTo(first.leaseId());
    assertThat(fromPool.fencingToken()).isGreaterThan(third.fencingToken());
    PoolSnapshot after = limiter.inspect();
    assertThat(after.leases()).isEmpty();
    assertThat(after.waiters()).isEmpty();
  }

  @Test
  void anAttemptOfAnExecutionWaitsAtThePoolAndIsNeverPassedAUnit() throws Exception {
    Limiter limiter = open(handOffs(1, 4));
    Lease holder = limiter.acquire(1);
    CompletableFuture<String> plain = limiter.schedule(() -> "plain");
    AttemptScript script = AttemptScript.waiting(clock);
    CompletableFuture<String> run = limiter.execute(script, ExecuteOptions.defaults());
    settled(limiter);
    assertThat(limiter.inspect().waiters())
        .as("the attempt went to the store, which records its operation")
        .hasSize(2);
    assertThat(limiter.maintenance().status().runningOperations()).isEqualTo(1);

    holder.close();
    assertThat(await(plain)).isEqualTo("plain");
    ExecutionContext attempt = script.awaitStart();
    assertThat(attempt.admission().leaseId())
        .as("granted by the store, not passed the plain requests' unit")
        .isNotEqualTo(holder.admission().leaseId());
    assertThat(limiter.maintenance().status().runningOperations()).isEqualTo(1);
    script.release();
    assertThat(await(run)).isEqualTo("late");
    assertThat(limiter.maintenance().status().runningOperations()).isZero();
  }

  @Test
  void aJvmKeepsOneRequestWaitingAtThePool() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(handOffs(1, 4), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    List<CompletableFuture<String>> waiting = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      waiting.add(limiter.schedule(() -> "done"));
    }
    assertThat(limiter.inspect().waiters()).hasSize(1);
    // Delivered on the listener's own thread: wait for the five, then check there are no more.
    events.awaitCount(LimiterEvent.Kind.QUEUED, 5, SAFETY);
    assertThat(events.count(LimiterEvent.Kind.QUEUED))
        .as("held requests are queued too")
        .isEqualTo(5);
    holder.close();
    for (CompletableFuture<String> f : waiting) {
      assertThat(await(f)).isEqualTo("done");
    }
    assertThat(limiter.inspect().waiters()).isEmpty();
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void aBlockedAcquireIsPassedTheUnit() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter = open(handOffs(1, 4), LimiterOptions.builder().listener(events).build());
    Lease holder = limiter.acquire(1);
    AtomicReference<Admission> got = new AtomicReference<>();
    CountDownLatch acquired = new CountDownLatch(1);
    Thread waiter =
        new Thread(
            () -> {
              try (Lease l = limiter.acquire(1)) {
                got.set(l.admission());
                acquired.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    waiter.start();
    events.awaitCount(LimiterEvent.Kind.QUEUED, 1, SAFETY);
    holder.close();
    await(acquired);
    waiter.join(SAFETY.toMillis());
    assertThat(got.get().leaseId()).isEqualTo(holder.admission().leaseId());
    assertThat(got.get().fencingToken()).isEqualTo(holder.admission().fencingToken() + 1);
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void theStoreSeesTheUnitsLeaseAndNotThePassedRequestsEntry() throws Exception {
    Limiter limiter = open(handOffs(1, 8));
    Lease holder = limiter.acquire(1);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<String> atThePool = limiter.schedule(() -> "at the pool");
    CompletableFuture<String> passed =
        limiter.schedule(
            () -> {
              running.countDown();
              finish.await();
              return "passed";
            });
    holder.close();
    await(running);
    PoolSnapshot during = limiter.inspect();
    assertThat(during.leases()).hasSize(1);
    assertThat(during.leases().get(0).leaseId()).isEqualTo(holder.admission().leaseId());
    assertThat(during.waiters()).as("the request at the pool").hasSize(1);
    finish.countDown();
    assertThat(await(passed)).isEqualTo("passed");
    assertThat(await(atThePool)).isEqualTo("at the pool");
    assertThat(limiter.inspect().leases()).isEmpty();
  }

  @Test
  void anotherOwnersEarlierRequestWaitsForAtMostTheQuota() throws Exception {
    LimiterConfig config = handOffs(1, 2);
    Limiter local = open(config);
    Limiter other = openSecondOwner(config);
    List<String> order = new CopyOnWriteArrayList<>();
    Lease holder = local.acquire(1);
    CompletableFuture<Boolean> earlier = other.schedule(() -> order.add("other"));
    settled(other);
    List<CompletableFuture<Boolean>> later = new ArrayList<>();
    // "a" waits at the pool behind the other owner's request; "b" and "c" are held here.
    for (String name : List.of("a", "b", "c")) {
      later.add(local.schedule(() -> order.add(name)));
    }
    settled(local);
    holder.close();
    await(earlier);
    for (CompletableFuture<Boolean> f : later) {
      await(f);
    }
    assertThat(order).containsExactly("b", "c", "other", "a");
  }

  @Test
  void twoOwnersWithManyThreadsKeepTheCapAndEveryUnitComesBack() throws Exception {
    LimiterConfig config = handOffs(2, 3);
    Limiter first = open(config);
    Limiter second = openSecondOwner(config);
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int t = 0; t < 6; t++) {
      Limiter limiter = t % 2 == 0 ? first : second;
      Thread thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 300; i++) {
                    limiter.call(
                        () -> {
                          peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                          return inside.decrementAndGet();
                        });
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(SAFETY.toMillis());
      assertThat(thread.isAlive()).as("a caller finished within the safety timeout").isFalse();
    }
    assertThat(failures).isEmpty();
    assertThat(peak.get()).isBetween(1, 2);
    assertThat(first.inspect().leases()).isEmpty();
    assertThat(second.inspect().waiters()).isEmpty();
  }

  @Test
  void aPassedUnitWhoseRequestIsWithdrawnBeforeItStartsGoesOn() throws Exception {
    HeldExecutor held = new HeldExecutor();
    LimiterConfig config = handOffs(1, 4);
    Limiter heldCallbacks = open(config, LimiterOptions.builder().executor(held).build());
    Limiter plain = open(config);
    Lease holder = plain.acquire(1);
    CompletableFuture<String> atThePool = plain.schedule(() -> "at the pool");
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Integer> cancelled = heldCallbacks.schedule(runs::incrementAndGet);
    CompletableFuture<String> next = plain.schedule(() -> "next");
    holder.close();
    assertThat(held.heldCount()).as("passed the unit, not yet started").isEqualTo(1);
    assertThat(cancelled.cancel(false)).isTrue();
    assertThat(await(next)).isEqualTo("next");
    assertThat(await(atThePool)).isEqualTo("at the pool");
    held.runNext();
    assertThat(runs).hasValue(0);
    PoolSnapshot after = plain.inspect();
    assertThat(after.leases()).isEmpty();
    assertThat(after.waiters()).isEmpty();
  }

  @Test
  void tryAcquireOnAFullPoolAnswersAtOnce() throws Exception {
    Limiter limiter = open(handOffs(1, 4));
    Lease holder = limiter.acquire(1);
    CompletableFuture<String> waiting = limiter.schedule(() -> "waited");
    assertThat(
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                SAFETY, () -> limiter.tryAcquire(1)))
        .isEmpty();
    holder.close();
    assertThat(await(waiting)).isEqualTo("waited");
    try (Lease again = limiter.tryAcquire(1).orElseThrow()) {
      assertThat(again.admission().weight()).isEqualTo(1);
    }
  }

  @Test
  void aBurstOfHeldRequestsAdmittedAtOnceIsAllGranted() throws Exception {
    int burst = 3_000;
    HeldExecutor callbacks = new HeldExecutor();
    Limiter limiter =
        open(handOffs(burst, 1), LimiterOptions.builder().executor(callbacks).build());
    Lease all = limiter.acquire(burst);
    for (int i = 0; i < burst; i++) {
      limiter.schedule(() -> "granted");
    }
    // The whole cap comes back at once: every held request is sent in turn and admitted at once,
    // on the releasing thread where a store answers there. No callback runs, so no pass helps,
    // and a small stack shows any nesting of one send inside the answer to the previous one.
    Thread release = new Thread(null, all::close, "release-all", 256 * 1024);
    release.start();
    release.join(SAFETY.toMillis());
    settled(limiter);
    assertThat(limiter.inspect().leases()).hasSize(burst);
    assertThat(callbacks.heldCount()).isEqualTo(burst);
  }

  @Test
  void aRequestWithItsOwnLeaseLifetimeWaitsForTheStore() throws Exception {
    Limiter limiter = open(handOffs(1, 4));
    Lease holder = limiter.acquire(1);
    CompletableFuture<Admission> expiring =
        limiter.schedule(
            a -> a,
            dev.sluice.ScheduleOptions.builder()
                .expiration(java.time.Duration.ofMinutes(5))
                .build());
    holder.close();
    Admission a = await(expiring);
    assertThat(a.leaseId()).isNotEqualTo(holder.admission().leaseId());
    assertThat(a.expiresAt()).isPresent();
  }

  @Test
  void theReservoirCannotBeStartedOnAPoolThatPassesUnits() throws Exception {
    Limiter limiter = open(handOffs(2, 4));
    assertThatThrownBy(() -> limiter.incrementReservoir(5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("localHandOffs=4");
    assertThat(limiter.currentReservoir()).isEmpty();
  }

  @Test
  void aPoolIsOpenedOnlyWithTheSameQuota() throws Exception {
    open(handOffs(2, 4));
    assertThatThrownBy(() -> open(handOffs(2, 8)))
        .isInstanceOf(dev.sluice.ConfigMismatchException.class);
  }
}
