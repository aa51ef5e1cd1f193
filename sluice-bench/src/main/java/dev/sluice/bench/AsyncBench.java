/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * Hand the {@link Task} to another thread and wait for its result: the "schedule and join" cost.
 *
 * <p>{@code supplyAsyncJoin} is the floor from the peer baselines (group 4): {@code
 * CompletableFuture.supplyAsync(task, Executors.newFixedThreadPool(4)).join()}. {@code
 * sluiceScheduleJoin} is {@code limiter.schedule(task).join()} on a memory pool with {@code
 * maxConcurrent(4)}; its future completes only after the task returned and its lease was released.
 * Both pay to wake a parked thread and then the caller. Meant for {@code -t 1}.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AsyncBench {

  /** A fixed pool of 4 threads, built once per trial. */
  @State(Scope.Benchmark)
  public static class PoolState {
    ExecutorService pool;

    @Setup(Level.Trial)
    public void setUp() {
      pool = Executors.newFixedThreadPool(4);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      pool.shutdown();
      pool.awaitTermination(10, TimeUnit.SECONDS);
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
              MemoryStore.named(PoolKeys.fresh("async")),
              LimiterConfig.builder().maxConcurrent(4).build());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /** {@code CompletableFuture.supplyAsync(task, fixedPool(4)).join()}. */
  @Benchmark
  public Integer supplyAsyncJoin(PoolState s) {
    return CompletableFuture.supplyAsync(Task.SUPPLIER, s.pool).join();
  }

  /** Sluice {@code limiter.schedule(task).join()}. */
  @Benchmark
  public Integer sluiceScheduleJoin(SluiceState s) {
    return s.limiter.schedule(Task.CALLABLE).join();
  }
}
