/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.Limiter;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link RecoveryBench#sluiceCall}'s work in a plain loop: {@code limiter.call(task, options)} on
 * the same pool with the same options, from a number of threads for a number of seconds, twice,
 * printing the second round's time per call per thread. On a shared machine, JMH's short iterations
 * scatter more than a before/after change of a few hundred nanoseconds; a longer steady loop, run
 * alternately with the two jars, shows the change with less spread.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.sluice.bench.SteadyCallLoop THREADS SECONDS}.
 */
public final class SteadyCallLoop {
  private static final ExecutionTask<Integer> TASK = ctx -> Task.run();

  private SteadyCallLoop() {}

  /**
   * Runs the loop.
   *
   * @param args the thread count and the seconds of each round
   * @throws InterruptedException if interrupted while waiting for the threads
   */
  public static void main(String[] args) throws InterruptedException {
    int threads = Integer.parseInt(args[0]);
    long seconds = Long.parseLong(args[1]);
    ExecuteOptions options = RetryPolicies.sluice();
    try (Limiter limiter = RecoveryBench.openLimiter()) {
      double nanos = 0;
      for (int round = 0; round < 2; round++) {
        nanos = round(limiter, options, threads, seconds);
      }
      System.out.printf("sluiceCall, %d thread(s): %.0f ns per call per thread%n", threads, nanos);
    }
  }

  private static double round(Limiter limiter, ExecuteOptions options, int threads, long seconds)
      throws InterruptedException {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    LongAdder calls = new LongAdder();
    Thread[] workers = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      workers[i] =
          new Thread(
              () -> {
                long n = 0;
                try {
                  // Reads the clock once every 64 calls, so the loop's own readings stay small.
                  while ((n & 63) != 0 || System.nanoTime() < end) {
                    limiter.call(TASK, options);
                    n++;
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                calls.add(n);
              });
      workers[i].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    return seconds * 1e9 * threads / calls.sum();
  }
}
