/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import com.google.common.util.concurrent.RateLimiter;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import java.time.Duration;
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
 * Rate admission with no task, in two pairs.
 *
 * <p><b>Overhead only</b> (peer baselines group 3): Guava {@code
 * RateLimiter.create(1e9).acquire()}, a rate so high it never waits, versus {@code try (Lease l =
 * limiter.acquire(1)) {}} on a Sluice memory pool with no concurrency cap and {@code
 * reservoir(Long.MAX_VALUE / 2)}, so every admission goes through the token-spending path but never
 * runs dry. (Sluice spacing has millisecond resolution, so a "never waits" spacing row is not
 * possible; the reservoir is its unlimited-rate counterpart.)
 *
 * <p><b>Real spacing</b>: Guava {@code RateLimiter.create(1000).acquire()} versus a Sluice pool
 * with {@code minTime(Duration.ofMillis(1))}, both in ns per admission at {@code -t 1}. Both should
 * come out near 1 ms, which shows that each honours its rate; the difference is how precisely it
 * wakes.
 */
@BenchmarkMode(Mode.AverageTime)
@Fork(jvmArgsAppend = {ForkedHeap.INITIAL, ForkedHeap.MAX, ForkedHeap.PRE_TOUCH})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SpacingBench {

  /** Guava at 1e9 permits per second: never sleeps. */
  @State(Scope.Benchmark)
  public static class GuavaUnlimitedState {
    RateLimiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter = RateLimiter.create(1e9);
    }
  }

  /** Guava at 1000 permits per second: one admission per millisecond. */
  @State(Scope.Benchmark)
  public static class GuavaSpacedState {
    RateLimiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter = RateLimiter.create(1000);
    }
  }

  /** A Sluice memory pool with no cap and a reservoir that never runs dry. */
  @State(Scope.Benchmark)
  public static class SluiceReservoirState {
    Limiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter =
          Limiter.open(
              MemoryStore.named(PoolKeys.fresh("reservoir")),
              LimiterConfig.builder().reservoir(Long.MAX_VALUE / 2).build());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /** A Sluice memory pool with no cap and {@code minTime(1 ms)}. */
  @State(Scope.Benchmark)
  public static class SluiceSpacedState {
    Limiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
      limiter =
          Limiter.open(
              MemoryStore.named(PoolKeys.fresh("spaced")),
              LimiterConfig.builder().minTime(Duration.ofMillis(1)).build());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      limiter.close();
    }
  }

  /** Guava {@code RateLimiter.create(1e9).acquire()}; returns the (zero) seconds slept. */
  @Benchmark
  public double guavaUnlimited(GuavaUnlimitedState s) {
    return s.limiter.acquire();
  }

  /** Sluice {@code acquire(1)} and close on an uncapped pool with a huge reservoir. */
  @Benchmark
  @SuppressWarnings("try") // the lease is held, not read
  public void sluiceReservoir(SluiceReservoirState s) throws InterruptedException {
    try (Lease lease = s.limiter.acquire(1)) {
      // admission and release only
    }
  }

  /** Guava {@code RateLimiter.create(1000).acquire()}; returns the seconds slept. */
  @Benchmark
  public double guava1000PerSecond(GuavaSpacedState s) {
    return s.limiter.acquire();
  }

  /** Sluice {@code acquire(1)} and close on a pool with {@code minTime(1 ms)}. */
  @Benchmark
  @SuppressWarnings("try") // the lease is held, not read
  public void sluiceMinTime1ms(SluiceSpacedState s) throws InterruptedException {
    try (Lease lease = s.limiter.acquire(1)) {
      // admission and release only
    }
  }
}
