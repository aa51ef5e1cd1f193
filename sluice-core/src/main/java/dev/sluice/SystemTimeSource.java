/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The system clocks and one daemon timer thread shared by every limiter in the JVM. */
final class SystemTimeSource implements TimeSource {
  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  private final ScheduledThreadPoolExecutor timer;

  private SystemTimeSource() {
    timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "sluice-timer");
              t.setDaemon(true);
              return t;
            });
    // Cancelled timers are common (a grant beats its deadline); do not let them pile up.
    timer.setRemoveOnCancelPolicy(true);
  }

  @Override
  public long wallMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public long monotonicNanos() {
    return System.nanoTime();
  }

  @Override
  public Timer schedule(Runnable task, long delayNanos) {
    ScheduledFuture<?> f = timer.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }
}
