/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Instant;

/**
 * The machine's wall clock in microseconds since the epoch, from {@link Instant#now()}. Two
 * processes on one machine read the same clock, so a time taken in one can be subtracted from a
 * time taken in the other.
 */
final class WallClock {
  private WallClock() {}

  /** Returns {@link Instant#now()} in whole microseconds since the epoch. */
  static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
