/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import dev.sluice.memory.MemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hammers the grant hand-off: many threads, a small cap, no work in between, so grants race the
 * acquiring thread's own bookkeeping. A lost grant shows as a thread that never returns (the test
 * fails at its timeout); a double grant shows as more holders than the cap.
 */
class HandoffStressTest {
  /** One thread's work: runs {@code perThread} operations, seeded by the thread's number. */
  @FunctionalInterface
  private interface Worker {
    void run(int thread, int perThread) throws Exception;
  }

  /** Runs {@code worker} on {@code threads} threads and checks that every one finished. */
  private static void runThreads(int threads, int perThread, Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Callable<Integer>> jobs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        jobs.add(
            () -> {
              worker.run(thread, perThread);
              return perThread;
            });
      }
      int done = 0;
      for (Future<Integer> f : pool.invokeAll(jobs, 50, TimeUnit.SECONDS)) {
        done += f.get();
      }
      assertThat(done).isEqualTo(threads * perThread);
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest(name = "localHandOffs={0}")
  @ValueSource(ints = {0, 16})
  void contendedCallsNeitherLoseNorDuplicateGrants(int handOffs) throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("stress-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(4).localHandOffs(handOffs).build())) {
      runThreads(
          8,
          20_000,
          (thread, perThread) -> {
            for (int i = 0; i < perThread; i++) {
              limiter.call(
                  () -> {
                    peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    return inside.decrementAndGet();
                  });
            }
          });
      assertThat(peak.get()).isBetween(1, 4);
      assertThat(limiter.inspect().activeWeight()).isZero();
      assertThat(limiter.inspect().waiters()).isEmpty();
    }
  }

  /**
   * Passes race withdrawals: scheduled requests that are cancelled, time out in the queue, or run,
   * mixed with blocking calls. A unit passed to a request that is withdrawn must go on or back,
   * once: a leak shows as weight left held at the end, a double use as more holders than the cap.
   */
  @Test
  void passesRacingCancellationsAndTimeoutsNeitherLeakNorDuplicateUnits() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("stress-withdraw-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(2).localHandOffs(4).build())) {
      Callable<Integer> body =
          () -> {
            peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
            return inside.decrementAndGet();
          };
      runThreads(
          6,
          4_000,
          (thread, perThread) -> {
            Random random = new Random(thread);
            for (int i = 0; i < perThread; i++) {
              switch (random.nextInt(4)) {
                case 0 -> limiter.call(body);
                case 1 -> limiter.schedule(body).cancel(false);
                case 2 ->
                    limiter
                        .schedule(
                            a -> body.call(),
                            ScheduleOptions.builder()
                                .queueTimeout(Duration.ofNanos(1 + random.nextInt(50_000)))
                                .build())
                        .handle((r, e) -> r)
                        .get(20, TimeUnit.SECONDS);
                default -> limiter.schedule(body).get(20, TimeUnit.SECONDS);
              }
            }
          });
      assertThat(peak.get()).isBetween(1, 2);
      // Callbacks of cancelled requests may still run; the whole cap comes back once they end.
      Optional<Lease> all = limiter.tryAcquire(2, Duration.ofSeconds(20));
      assertThat(all).as("every unit came back").isPresent();
      all.get().close();
      PoolSnapshot end = limiter.inspect();
      assertThat(end.activeWeight()).as("every unit came back").isZero();
      assertThat(end.waiters()).isEmpty();
    }
  }
}
