/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterClosedException;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Properties under real threads and real time: caps, spacing, tokens, order, no leaks. */
public abstract class ThreadedCases extends ConformanceCase {
  private static final int THREADS = 8;
  private static final int TASKS = 200;

  protected ThreadedCases(StoreFactory stores) {
    super(stores);
  }

  private Limiter openReal(LimiterConfig config) {
    return track(Limiter.open(systemClockStore(), config));
  }

  private static <T> List<T> runAll(List<java.util.concurrent.Callable<T>> jobs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<T> out = new ArrayList<>();
      for (Future<T> f : pool.invokeAll(jobs)) {
        out.add(await(f));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void threadsTimesTasksNeverExceedTheCap() throws Exception {
    Limiter limiter = openReal(cap(3));
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    List<java.util.concurrent.Callable<Integer>> jobs = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      jobs.add(
          () -> {
            for (int i = 0; i < TASKS; i++) {
              limiter.call(
                  () -> {
                    peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    Thread.yield();
                    return inside.decrementAndGet();
                  });
            }
            return 0;
          });
    }
    runAll(jobs);
    assertThat(peak.get()).isBetween(1, 3);
    assertThat(limiter.inspect().activeWeight()).isZero();
  }

  @Test
  void weightedScheduledWorkNeverExceedsTheCap() throws Exception {
    Limiter limiter = openReal(cap(5));
    AtomicLong inside = new AtomicLong();
    AtomicLong peak = new AtomicLong();
    List<CompletableFuture<Long>> all = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      long weight = 1 + i % 3;
      all.add(
          limiter.schedule(
              a -> {
                peak.accumulateAndGet(inside.addAndGet(a.weight()), Math::max);
                Thread.yield();
                return inside.addAndGet(-a.weight());
              },
              ScheduleOptions.builder().weight(weight).build()));
    }
    for (CompletableFuture<Long> f : all) {
      await(f);
    }
    assertThat(peak.get()).isBetween(1L, 5L);
  }

  @Test
  void admissionsAreNeverCloserThanMinTime() throws Exception {
    Duration gap = Duration.ofMillis(3);
    Limiter limiter = openReal(LimiterConfig.builder().minTime(gap).build());
    List<Admission> admissions = new CopyOnWriteArrayList<>();
    List<java.util.concurrent.Callable<Integer>> jobs = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      jobs.add(
          () -> {
            for (int i = 0; i < 10; i++) {
              try (Lease lease = limiter.acquire(1)) {
                admissions.add(lease.admission());
              }
            }
            return 0;
          });
    }
    runAll(jobs);
    List<Admission> sorted = new ArrayList<>(admissions);
    sorted.sort(java.util.Comparator.comparingLong(Admission::fencingToken));
    for (int i = 1; i < sorted.size(); i++) {
      assertThat(Duration.between(sorted.get(i - 1).grantedAt(), sorted.get(i).grantedAt()))
          .isGreaterThanOrEqualTo(gap);
    }
    assertThat(sorted).hasSize(40);
  }

  @Test
  void tokensAreNeverOverspent() throws Exception {
    Limiter limiter = openReal(LimiterConfig.builder().reservoir(50).build());
    AtomicInteger granted = new AtomicInteger();
    List<java.util.concurrent.Callable<Integer>> jobs = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      jobs.add(
          () -> {
            for (int i = 0; i < 20; i++) {
              limiter
                  .tryAcquire(1)
                  .ifPresent(
                      l -> {
                        granted.incrementAndGet();
                        l.close();
                      });
            }
            return 0;
          });
    }
    runAll(jobs);
    assertThat(granted).hasValue(50);
    assertThat(limiter.currentReservoir()).hasValue(0);
  }

  @Test
  void admissionOrderEqualsArrivalOrder() throws Exception {
    EventRecorder events = new EventRecorder();
    Limiter limiter =
        track(
            Limiter.open(
                systemClockStore(), cap(1), LimiterOptions.builder().listener(events).build()));
    Lease holder = limiter.acquire(1);
    List<Integer> started = new CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      int n = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  limiter.call(() -> started.add(n));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      threads.add(t);
      t.start();
      events.awaitCount(LimiterEvent.Kind.QUEUED, i + 1);
    }
    holder.close();
    for (Thread t : threads) {
      t.join(SAFETY.toMillis());
    }
    assertThat(started).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  }

  @Test
  void nothingLeaksAfterAMixOfOutcomes() throws Exception {
    Limiter limiter = openReal(cap(2));
    List<CompletableFuture<Integer>> all = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      int n = i;
      CompletableFuture<Integer> f =
          limiter.schedule(
              a -> {
                if (n % 7 == 0) {
                  throw new IllegalStateException("planned");
                }
                return n;
              },
              ScheduleOptions.builder().queueTimeout(Duration.ofSeconds(30)).build());
      if (i % 5 == 0) {
        f.cancel(false);
      }
      all.add(f);
    }
    for (CompletableFuture<Integer> f : all) {
      f.handle((v, e) -> v).get(SAFETY.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    }
    // Inspected while the limiter is open: closing it would retire whatever leaked.
    PoolSnapshot s = limiter.inspect();
    assertThat(s.leases()).isEmpty();
    assertThat(s.waiters()).isEmpty();
    assertThat(s.activeWeight()).isZero();
  }

  @Test
  void aThreadWaitingInAcquireIsToldTheLimiterClosed() throws Exception {
    for (int round = 0; round < 20; round++) {
      EventRecorder events = new EventRecorder();
      Limiter limiter =
          track(
              Limiter.open(
                  systemClockStore(), cap(1), LimiterOptions.builder().listener(events).build()));
      Lease holder = limiter.acquire(1);
      CompletableFuture<Throwable> outcome =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  limiter.acquire(1).close();
                  return null;
                } catch (Exception e) {
                  return e;
                }
              });
      events.awaitCount(LimiterEvent.Kind.QUEUED, 1);
      CompletableFuture<Void> closing = limiter.closeAsync().toCompletableFuture();
      assertThat(await(outcome)).as("round %d", round).isInstanceOf(LimiterClosedException.class);
      holder.close();
      await(closing);
    }
  }
}
