/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.failsafe.CircuitBreaker;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.sluice.BreakerPolicy;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.RecoveryPolicy;
import dev.sluice.memory.MemoryStore;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.retry.Retry;
import java.time.Duration;
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
 * Issue 16's side-by-side row: a retry policy and a circuit breaker configured, no failures, so
 * every row is what the pair costs on the success path. The policies match: 3 attempts, 500 ms
 * doubling to 10 s, ±20 % jitter; the breaker opens after 5 failures in a row for 30 s.
 *
 * <p>{@code resilience4j} is Resilience4j's {@code Retry} around its {@code CircuitBreaker} (a
 * count-based window of 5 at a 100 % failure rate: 5 failures in a row) and {@code failsafe} is
 * {@code Failsafe.with(retryPolicy, circuitBreaker)}, both on the calling thread and in one JVM;
 * their {@code …Bulkhead} rows add a bulkhead of 64 calls at once, the cap Sluice's pool has.
 * {@code sluiceCall} is {@code limiter.call(task, options)} and {@code sluiceExecuteJoin} {@code
 * limiter.execute(task, options).join()} on a memory pool of {@code maxConcurrent(64)} (never full)
 * whose recovery policy has the breaker: each attempt takes a lease and reports its outcome to the
 * pool's shared breaker, as every process on the pool would. Run with {@code -t 1} and {@code -t
 * 8}.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecoveryBench {
  private static final ExecutionTask<Integer> TASK = ctx -> Task.run();

  /** The peers' retry and breaker pairs, built once per trial. */
  @State(Scope.Benchmark)
  public static class PeerState {
    Callable<Integer> resilience4j;
    FailsafeExecutor<Integer> failsafe;
    Callable<Integer> resilience4jBulkhead;
    FailsafeExecutor<Integer> failsafeBulkhead;

    @Setup(Level.Trial)
    public void setUp() {
      Retry retry = RetryPolicies.resilience4j();
      io.github.resilience4j.circuitbreaker.CircuitBreaker breaker =
          io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
              "bench",
              CircuitBreakerConfig.custom()
                  .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                  .slidingWindowSize(5)
                  .minimumNumberOfCalls(5)
                  .failureRateThreshold(100)
                  .waitDurationInOpenState(Duration.ofSeconds(30))
                  .build());
      resilience4j =
          Retry.decorateCallable(
              retry,
              io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateCallable(
                  breaker, Task.CALLABLE));
      failsafe = Failsafe.with(RetryPolicies.failsafe(), failsafeBreaker());
      // With a cap of 64 at once, as Sluice's pool has: the peers' in-JVM bulkheads.
      Bulkhead bulkhead =
          Bulkhead.of("bench", BulkheadConfig.custom().maxConcurrentCalls(64).build());
      resilience4jBulkhead =
          Retry.decorateCallable(
              RetryPolicies.resilience4j(),
              io.github.resilience4j.circuitbreaker.CircuitBreaker.decorateCallable(
                  io.github.resilience4j.circuitbreaker.CircuitBreaker.of(
                      "bench-bulkhead", breaker.getCircuitBreakerConfig()),
                  Bulkhead.decorateCallable(bulkhead, Task.CALLABLE)));
      failsafeBulkhead =
          Failsafe.with(
              RetryPolicies.failsafe(),
              failsafeBreaker(),
              dev.failsafe.Bulkhead.<Integer>builder(64).build());
    }

    private static CircuitBreaker<Integer> failsafeBreaker() {
      return CircuitBreaker.<Integer>builder()
          .withFailureThreshold(5)
          .withDelay(Duration.ofSeconds(30))
          .build();
    }
  }

  /** A Sluice limiter whose pool has the breaker, and retrying execute options. */
  @State(Scope.Benchmark)
  public static class SluiceState {
    Limiter limiter;
    ExecuteOptions options;

    @Setup(Level.Trial)
    public void setUp() {
      limiter = openLimiter();
      options = RetryPolicies.sluice();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /**
   * The Sluice side's limiter: a fresh memory pool of {@code maxConcurrent(64)} whose recovery
   * policy has a breaker opening after 5 failures in a row for 30 s.
   *
   * @return the limiter, open
   */
  static Limiter openLimiter() {
    return Limiter.open(MemoryStore.named(PoolKeys.fresh("recovery")), poolConfig());
  }

  /**
   * The pool's configuration: {@code maxConcurrent(64)} with a breaker opening after 5 failures in
   * a row for 30 s.
   *
   * @return the configuration
   */
  static LimiterConfig poolConfig() {
    return LimiterConfig.builder()
        .maxConcurrent(64)
        .recovery(
            RecoveryPolicy.builder()
                .breaker(
                    BreakerPolicy.consecutive()
                        .failureThreshold(5)
                        .initialPause(Duration.ofSeconds(30))
                        .build())
                .build())
        .build();
  }

  /** Resilience4j {@code Retry} around its {@code CircuitBreaker} around the task. */
  @Benchmark
  public Integer resilience4j(PeerState s) throws Exception {
    return s.resilience4j.call();
  }

  /** Failsafe with a {@code RetryPolicy} and a {@code CircuitBreaker}. */
  @Benchmark
  public Integer failsafe(PeerState s) {
    return s.failsafe.get(Task.CHECKED);
  }

  /** Resilience4j {@code Retry} around its {@code CircuitBreaker} around a 64-call bulkhead. */
  @Benchmark
  public Integer resilience4jBulkhead(PeerState s) throws Exception {
    return s.resilience4jBulkhead.call();
  }

  /** Failsafe with a {@code RetryPolicy}, a {@code CircuitBreaker} and a 64-call bulkhead. */
  @Benchmark
  public Integer failsafeBulkhead(PeerState s) {
    return s.failsafeBulkhead.get(Task.CHECKED);
  }

  /** Sluice {@code limiter.call(task, options)} on a pool with a breaker. */
  @Benchmark
  public Integer sluiceCall(SluiceState s) throws Exception {
    return s.limiter.call(TASK, s.options);
  }

  /** Sluice {@code limiter.execute(task, options).join()} on a pool with a breaker. */
  @Benchmark
  public Integer sluiceExecuteJoin(SluiceState s) {
    return s.limiter.execute(TASK, s.options).join();
  }
}
