/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import io.github.resilience4j.retry.Retry;
import java.util.concurrent.Callable;
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
 * Retries configured, none needed: the {@link Task} never fails, so every row measures what a retry
 * wrapper costs on the success path. The policies match: 3 attempts, 500 ms doubling to 10 s, ±20 %
 * jitter.
 *
 * <p>{@code resilience4jRetry} is Resilience4j 2.4.0 {@code Retry.decorateCallable} and {@code
 * failsafeRetry} Failsafe 3.3.2 {@code Failsafe.with(retryPolicy).get(task)}, both on the calling
 * thread. {@code sluiceExecuteJoin} is {@code limiter.execute(task, options).join()} and {@code
 * sluiceExecuteCall} its blocking form, on a memory pool with {@code maxConcurrent(64)} (never
 * full): each attempt takes a lease, with a deadline and an attempt timeout armed; execute's
 * attempts run on the limiter's executor, call's on the calling thread. {@code sluiceScheduleJoin}
 * is the same hand-off without execution, the floor of the execute rows. Run with {@code -t 1} and
 * {@code -t 8}.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RetryBench {
  private static final ExecutionTask<Integer> TASK = ctx -> Task.run();

  /** The peers' retry wrappers, built once per trial. */
  @State(Scope.Benchmark)
  public static class PeerState {
    Callable<Integer> resilience4j;
    FailsafeExecutor<Integer> failsafe;

    @Setup(Level.Trial)
    public void setUp() {
      Retry retry = RetryPolicies.resilience4j();
      resilience4j = Retry.decorateCallable(retry, Task.CALLABLE);
      failsafe = Failsafe.with(RetryPolicies.failsafe());
    }
  }

  /** A Sluice limiter on a fresh memory pool, and retrying execute options. */
  @State(Scope.Benchmark)
  public static class SluiceState {
    Limiter limiter;
    ExecuteOptions options;

    @Setup(Level.Trial)
    public void setUp() {
      limiter =
          Limiter.open(
              MemoryStore.named(PoolKeys.fresh("retry")),
              LimiterConfig.builder().maxConcurrent(64).build());
      options = RetryPolicies.sluice();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /** The task alone. */
  @Benchmark
  public Integer direct() {
    return Task.run();
  }

  /** Resilience4j {@code Retry} around the task. */
  @Benchmark
  public Integer resilience4jRetry(PeerState s) throws Exception {
    return s.resilience4j.call();
  }

  /** Failsafe {@code RetryPolicy} around the task. */
  @Benchmark
  public Integer failsafeRetry(PeerState s) {
    return s.failsafe.get(Task.CHECKED);
  }

  /** Sluice {@code limiter.execute(task, options).join()}. */
  @Benchmark
  public Integer sluiceExecuteJoin(SluiceState s) {
    return s.limiter.execute(TASK, s.options).join();
  }

  /** Sluice {@code limiter.call(task, options)}. */
  @Benchmark
  public Integer sluiceExecuteCall(SluiceState s) throws Exception {
    return s.limiter.call(TASK, s.options);
  }

  /** Sluice {@code limiter.schedule(task).join()}: the hand-off alone. */
  @Benchmark
  public Integer sluiceScheduleJoin(SluiceState s) {
    return s.limiter.schedule(Task.CALLABLE).join();
  }
}
