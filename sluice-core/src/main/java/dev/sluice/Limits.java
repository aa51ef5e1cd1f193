/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;

/** Shared argument checks, so every message names the field, the value and the allowed range. */
final class Limits {
  /** The longest duration any setting accepts: ten years, far from any overflow of store time. */
  static final Duration MAX_DURATION = Duration.ofDays(3650);

  private Limits() {}

  static long positive(String field, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(
          field + " must be at least 1 (allowed 1.." + Long.MAX_VALUE + "), was " + value);
    }
    return value;
  }

  static long nonNegative(String field, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          field + " must not be negative (allowed 0.." + Long.MAX_VALUE + "), was " + value);
    }
    return value;
  }

  /**
   * Checks a duration and returns it in whole milliseconds, rounding a fraction up: stores keep
   * millisecond time, and rounding up never shortens a spacing or a timeout.
   */
  static long millis(String field, Duration value, long minimumMillis) {
    if (value == null) {
      throw new NullPointerException(field + " must not be null");
    }
    if (value.isNegative() || value.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException(
          field + " must be between " + rangeText(minimumMillis) + ", was " + value);
    }
    long millis = value.toMillis();
    Duration rest = value.minusMillis(millis);
    if (!rest.isZero() && !rest.isNegative()) {
      millis++;
    }
    if (millis < minimumMillis) {
      throw new IllegalArgumentException(
          field + " must be between " + rangeText(minimumMillis) + ", was " + value);
    }
    return millis;
  }

  static double factor(String field, double value) {
    if (!(value >= 1 && value <= 16)) {
      throw new IllegalArgumentException(field + " must be between 1 and 16, was " + value);
    }
    return value;
  }

  private static String rangeText(long minimumMillis) {
    return (minimumMillis == 0 ? "0" : minimumMillis + " ms")
        + " and "
        + MAX_DURATION
        + " (3650 days)";
  }
}
