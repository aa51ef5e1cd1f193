/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import java.util.ArrayList;
import java.util.List;
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
  @ParameterizedTest(name = "localHandOffs={0}")
  @ValueSource(ints = {0, 16})
  void contendedCallsNeitherLoseNorDuplicateGrants(int handOffs) throws Exception {
    int threads = 8;
    int perThread = 20_000;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("stress-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(4).localHandOffs(handOffs).build())) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Callable<Integer>> jobs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          jobs.add(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  limiter.call(
                      () -> {
                        peak.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        return inside.decrementAndGet();
                      });
                }
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
    int threads = 6;
    int perThread = 4_000;
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
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Callable<Integer>> jobs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int seed = t;
          jobs.add(
              () -> {
                java.util.Random random = new java.util.Random(seed);
                for (int i = 0; i < perThread; i++) {
                  switch (random.nextInt(4)) {
                    case 0 -> limiter.call(body);
                    case 1 -> limiter.schedule(body).cancel(false);
                    case 2 ->
                        limiter
                            .schedule(
                                a -> body.call(),
                                dev.sluice.ScheduleOptions.builder()
                                    .queueTimeout(
                                        java.time.Duration.ofNanos(1 + random.nextInt(50_000)))
                                    .build())
                            .handle((r, e) -> r)
                            .get(20, TimeUnit.SECONDS);
                    default -> limiter.schedule(body).get(20, TimeUnit.SECONDS);
                  }
                }
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
      assertThat(peak.get()).isBetween(1, 2);
      // Callbacks of cancelled requests may still run; the whole cap comes back once they end.
      java.util.Optional<dev.sluice.Lease> all =
          limiter.tryAcquire(2, java.time.Duration.ofSeconds(20));
      assertThat(all).as("every unit came back").isPresent();
      all.get().close();
      dev.sluice.PoolSnapshot end = limiter.inspect();
      assertThat(end.activeWeight()).as("every unit came back").isZero();
      assertThat(end.waiters()).isEmpty();
    }
  }
}
