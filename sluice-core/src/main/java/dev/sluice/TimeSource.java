/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The clocks and the timer Sluice uses: wall time for deadlines a store shares, monotonic time for
 * local durations, and one-shot timers for the next useful deadline.
 *
 * <p>Production code uses {@link #system()}. Tests inject a manual source (see {@code
 * dev.sluice.testkit.ManualClock}) so that nothing sleeps.
 *
 * <p>Implementations must be thread-safe. {@link #schedule} must not run the task on the calling
 * thread; tasks must be short and must not block.
 */
public interface TimeSource {
  /** Returns wall time in milliseconds since the epoch: the time stores persist and share. */
  long wallMillis();

  /** Returns a monotonic reading in nanoseconds, for local durations only. */
  long monotonicNanos();

  /**
   * Runs a task once after a delay.
   *
   * @param task a short, non-blocking task
   * @param delayNanos the delay; zero or less runs it as soon as possible
   * @return a handle that cancels the task if it has not run yet
   */
  Timer schedule(Runnable task, long delayNanos);

  /** Returns the system clocks with a shared daemon timer thread. */
  static TimeSource system() {
    return SystemTimeSource.INSTANCE;
  }

  /** A scheduled one-shot task. */
  @FunctionalInterface
  interface Timer {
    /** Cancels the task if it has not run; does nothing otherwise. */
    void cancel();
  }
}
