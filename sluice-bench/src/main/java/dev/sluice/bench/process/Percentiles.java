/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.util.Arrays;
import java.util.List;

/**
 * Nearest-rank percentiles of a list of latencies in microseconds, reported in milliseconds.
 *
 * @param samples how many latencies
 * @param p50Millis the median
 * @param p99Millis the 99th percentile (the maximum when there are fewer than 100 samples)
 * @param maxMillis the largest
 */
record Percentiles(int samples, double p50Millis, double p99Millis, double maxMillis) {

  /**
   * Computes the percentiles.
   *
   * @param micros latencies in microseconds, at least one
   * @return the summary
   */
  static Percentiles ofMicros(List<Long> micros) {
    if (micros.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    long[] sorted = micros.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return new Percentiles(
        sorted.length,
        rank(sorted, 50) / 1000.0,
        rank(sorted, 99) / 1000.0,
        sorted[sorted.length - 1] / 1000.0);
  }

  /** The smallest sample with at least {@code percent} % of the samples at or below it. */
  private static long rank(long[] sorted, int percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
