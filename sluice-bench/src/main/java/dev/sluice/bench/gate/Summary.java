/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import java.util.Arrays;
import java.util.List;

/**
 * Mean and nearest-rank percentiles of a list of durations in nanoseconds, in milliseconds.
 *
 * @param samples how many durations
 * @param meanMillis the arithmetic mean
 * @param p50Millis the median
 * @param p90Millis the 90th percentile
 * @param maxMillis the largest
 */
record Summary(
    int samples, double meanMillis, double p50Millis, double p90Millis, double maxMillis) {

  /**
   * Summarizes durations.
   *
   * @param nanos durations in nanoseconds, at least one
   * @return the summary
   */
  static Summary ofNanos(List<Long> nanos) {
    if (nanos.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    long[] sorted = nanos.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return new Summary(
        sorted.length,
        Arrays.stream(sorted).average().orElseThrow() / 1e6,
        rank(sorted, 50) / 1e6,
        rank(sorted, 90) / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  /** The smallest sample with at least {@code percent} % of the samples at or below it. */
  private static long rank(long[] sorted, int percent) {
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
