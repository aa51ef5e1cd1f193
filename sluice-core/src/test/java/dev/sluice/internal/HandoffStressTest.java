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

/**
 * Hammers the grant hand-off: many threads, a small cap, no work in between, so grants race the
 * acquiring thread's own bookkeeping. A lost grant shows as a thread that never returns (the test
 * fails at its timeout); a double grant shows as more holders than the cap.
 */
class HandoffStressTest {
  @Test
  void contendedCallsNeitherLoseNorDuplicateGrants() throws Exception {
    int threads = 8;
    int perThread = 20_000;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("stress-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(4).build())) {
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
}
