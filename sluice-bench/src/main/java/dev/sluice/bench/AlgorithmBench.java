/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.PoolAlgorithm;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolContext;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.ReportedOutcome;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pool's own part of one managed call, with no store, lock or thread around it: {@link
 * PoolAlgorithm#apply} of the attempt's {@code Acquire} and of its {@code Report} on the pool
 * {@link RecoveryBench} uses ({@code maxConcurrent(64)} with a breaker). {@code acquireReport}
 * names an operation as {@code call} does, with a fresh id each time; {@code
 * acquireReportNoOperation} names none. What these cost is held under the pool's lock in every
 * store, so it bounds how many calls a pool can take at once. One thread only: the state is not
 * shared.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class AlgorithmBench {
  private static final String OWNER = "bench-owner";

  private PoolState state;
  private long now;
  private long sequence;
  private long ref;

  /** A fresh pool state, as {@link RecoveryBench#openLimiter()} configures it. */
  @Setup
  public void setUp() {
    now = 1_000_000L;
    state = PoolState.create(RecoveryBench.poolConfig(), now, 1024);
  }

  /** One acquire and its report, finishing the operation the acquire began. */
  @Benchmark
  public Object acquireReport() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return pair(new UUID(r.nextLong(), r.nextLong()).toString());
  }

  /** Only the fresh id {@link #acquireReport} names its operation with: its share of that row. */
  @Benchmark
  public String operationId() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return new UUID(r.nextLong(), r.nextLong()).toString();
  }

  /** One acquire and its report, with no operation. */
  @Benchmark
  public Object acquireReportNoOperation() {
    return pair("");
  }

  private Object pair(String operation) {
    AcquireAnswer a =
        PoolAlgorithm.apply(
                state,
                new PoolCommand.Acquire(OWNER, ++ref, 1, -1, -1, false, false, operation),
                PoolContext.at(++now, ++sequence))
            .value();
    long lease = ((AcquireAnswer.Granted) a).lease().id();
    state.markClean();
    Object r =
        PoolAlgorithm.apply(
                state,
                new PoolCommand.Report(OWNER, lease, ReportedOutcome.SUCCESS, 0, operation),
                PoolContext.at(now, ++sequence))
            .value();
    state.markClean();
    return r;
  }
}
