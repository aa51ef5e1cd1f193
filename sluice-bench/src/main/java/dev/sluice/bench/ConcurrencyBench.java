/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.failsafe.Bulkhead;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Concurrency limiting with a cap of 4 around the {@link Task}, on the calling thread: the cost of
 * taking and returning one permit, uncontended at {@code -t 1} and contended at {@code -t 8} (8
 * threads on a 2-core machine, so at most 4 run the task and the rest wait).
 *
 * <p>Rows, set up as in the peer baselines (group 1): {@code direct} (the task alone), {@link
 * Semaphore} unfair and fair, Resilience4j's {@code SemaphoreBulkhead} (fair by default, 60 s
 * wait), Failsafe's {@code Bulkhead} (FIFO, 60 s wait), and Sluice on the memory store, as {@code
 * limiter.call(task)} and as {@code try (Lease l = limiter.acquire(1)) { task }}. Every limiter is
 * built once per trial and shared by all benchmark threads. The thread count comes from {@code -t}.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConcurrencyBench {
  static final int CAP = 4;

  /** A {@link Semaphore} with 4 permits; {@code fair} selects the variant. */
  @State(Scope.Benchmark)
  public static class SemaphoreState {
    Semaphore unfair;
    Semaphore fair;

    @Setup(Level.Trial)
    public void setUp() {
      unfair = new Semaphore(CAP, false);
      fair = new Semaphore(CAP, true);
    }
  }

  /** Resilience4j's semaphore bulkhead: 4 concurrent calls, callers wait up to 60 s. */
  @State(Scope.Benchmark)
  public static class R4jState {
    io.github.resilience4j.bulkhead.Bulkhead bulkhead;

    @Setup(Level.Trial)
    public void setUp() {
      bulkhead =
          io.github.resilience4j.bulkhead.Bulkhead.of(
              "b",
              BulkheadConfig.custom()
                  .maxConcurrentCalls(CAP)
                  .maxWaitDuration(Duration.ofSeconds(60))
                  .build());
    }
  }

  /** Failsafe's bulkhead: 4 permits, callers wait up to 60 s; the executor is built once. */
  @State(Scope.Benchmark)
  public static class FailsafeState {
    FailsafeExecutor<Integer> executor;

    @Setup(Level.Trial)
    public void setUp() {
      Bulkhead<Integer> bulkhead =
          Bulkhead.<Integer>builder(CAP).withMaxWaitTime(Duration.ofSeconds(60)).build();
      executor = Failsafe.with(bulkhead);
    }
  }

  /** A Sluice limiter on a fresh memory pool with {@code maxConcurrent(4)}. */
  @State(Scope.Benchmark)
  public static class SluiceState {
    Limiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter =
          Limiter.open(
              MemoryStore.named(PoolKeys.fresh("concurrency")),
              LimiterConfig.builder().maxConcurrent(CAP).build());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /** The task with no limiter: the floor every other row is compared to. */
  @Benchmark
  public Integer direct() {
    return Task.run();
  }

  /** {@code Semaphore(4, false)}: acquire, task, release. */
  @Benchmark
  public Integer semaphoreUnfair(SemaphoreState s) throws InterruptedException {
    s.unfair.acquire();
    try {
      return Task.run();
    } finally {
      s.unfair.release();
    }
  }

  /** {@code Semaphore(4, true)}: acquire, task, release. */
  @Benchmark
  public Integer semaphoreFair(SemaphoreState s) throws InterruptedException {
    s.fair.acquire();
    try {
      return Task.run();
    } finally {
      s.fair.release();
    }
  }

  /** Resilience4j {@code SemaphoreBulkhead.executeCallable(task)}. */
  @Benchmark
  public Integer r4jBulkhead(R4jState s) throws Exception {
    return s.bulkhead.executeCallable(Task.CALLABLE);
  }

  /** Failsafe {@code Failsafe.with(bulkhead).get(task)}. */
  @Benchmark
  public Integer failsafeBulkhead(FailsafeState s) {
    return s.executor.get(Task.CHECKED);
  }

  /** Sluice {@code limiter.call(task)} on the memory store. */
  @Benchmark
  public Integer sluiceCall(SluiceState s) throws Exception {
    return s.limiter.call(Task.CALLABLE);
  }

  /** Sluice {@code try (Lease l = limiter.acquire(1)) { task }} on the memory store. */
  @Benchmark
  @SuppressWarnings("try") // the lease is held, not read
  public Integer sluiceAcquire(SluiceState s) throws InterruptedException {
    try (Lease lease = s.limiter.acquire(1)) {
      return Task.run();
    }
  }
}
