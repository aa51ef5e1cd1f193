/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.concurrent.atomic.AtomicBoolean;

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
   * Returns the wall time at the moment of {@code monotonicNanos}, a reading of {@link
   * #monotonicNanos()} just taken: for a caller that holds such a reading and needs the wall time
   * too, so that an implementation that can tell it need not read a second clock. The answer may
   * differ from {@link #wallMillis()} by a millisecond of rounding, and by a step of the wall clock
   * since the implementation last compared its two clocks. The default reads {@link #wallMillis()}.
   *
   * @param monotonicNanos a recent reading of {@link #monotonicNanos()}
   * @return wall time in milliseconds since the epoch
   */
  default long wallMillisAt(long monotonicNanos) {
    return wallMillis();
  }

  /**
   * Runs a task once after a delay.
   *
   * @param task a short, non-blocking task
   * @param delayNanos the delay; zero or less runs it as soon as possible
   * @return a handle that cancels the task if it has not run yet
   */
  Timer schedule(Runnable task, long delayNanos);

  /**
   * Runs a task once when {@link #monotonicNanos()} reaches {@code atNanos}: for a caller that
   * knows the moment already, so that an implementation that can need not read the clock again. The
   * default schedules the difference from a reading now.
   *
   * @param task a short, non-blocking task
   * @param atNanos the monotonic time to run it at; a moment already past runs it as soon as
   *     possible
   * @return a handle that cancels the task if it has not run yet
   */
  default Timer scheduleAtNanos(Runnable task, long atNanos) {
    return schedule(task, atNanos - monotonicNanos());
  }

  /**
   * Runs a task once when wall time reaches a moment. A delay computed from one reading and handed
   * to {@link #schedule} later is late by however far the clock moved in between, which for a clock
   * that jumps (a manual one in tests, a stepped system clock) can be the whole jump; this reads
   * the clock again after scheduling and schedules anew until it held still, and the task runs at
   * most once however many times it was scheduled.
   *
   * @param task a short, non-blocking task
   * @param wallMillis the wall time to run it at; a moment already past runs it as soon as possible
   * @return a handle that cancels the task if it has not run yet
   */
  default Timer scheduleAt(Runnable task, long wallMillis) {
    AtomicBoolean ran = new AtomicBoolean();
    Runnable once =
        () -> {
          if (ran.compareAndSet(false, true)) {
            task.run();
          }
        };
    long before = wallMillis();
    while (true) {
      Timer timer = schedule(once, Math.max(0, wallMillis - before) * 1_000_000L);
      long after = wallMillis();
      if (after == before || before >= wallMillis) {
        return timer;
      }
      timer.cancel();
      before = after;
    }
  }

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
