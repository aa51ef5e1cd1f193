/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The system clocks and one daemon timer thread shared by every limiter in the JVM. The thread
 * exists only while some task is scheduled: it starts with the first one and ends shortly after the
 * last one ran or was cancelled, so a JVM whose limiters are all closed keeps no Sluice thread (a
 * host such as Maven's {@code exec:java} waits for every thread, daemon or not, before it exits).
 *
 * <p>Thread-safe.
 */
final class SystemTimeSource implements TimeSource {
  static final SystemTimeSource INSTANCE = new SystemTimeSource();

  /**
   * How long the thread outlives its last task. A pool moves its deadline by cancelling one timer
   * and scheduling the next: without this grace each move would end one thread and start another.
   */
  private static final long LINGER_MILLIS = 100;

  /** The timer, or {@code null} while nothing is scheduled. Guarded by {@code this}. */
  private ScheduledThreadPoolExecutor timer;

  /** Tasks scheduled and neither run nor cancelled. Guarded by {@code this}. */
  private long pending;

  /** Whether a check that may end the thread is scheduled. Guarded by {@code this}. */
  private boolean reaping;

  private SystemTimeSource() {}

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
    AtomicBoolean counted = new AtomicBoolean(true);
    // Counted down exactly once, by whichever comes first: the task's end or its cancellation
    // (which may also arrive while it runs).
    Runnable done =
        () -> {
          if (counted.compareAndSet(true, false)) {
            finished();
          }
        };
    Runnable run =
        () -> {
          try {
            task.run();
          } finally {
            done.run();
          }
        };
    ScheduledFuture<?> f;
    synchronized (this) {
      if (timer == null) {
        timer = newTimer();
      }
      pending++;
      f = timer.schedule(run, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }
    return () -> {
      f.cancel(false);
      done.run();
    };
  }

  private synchronized void finished() {
    if (--pending == 0 && !reaping) {
      reaping = true;
      ScheduledThreadPoolExecutor current = timer;
      current.schedule(() -> reap(current), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Ends the thread if nothing was scheduled since the last task left. Runs on the timer. */
  private synchronized void reap(ScheduledThreadPoolExecutor which) {
    reaping = false;
    if (pending == 0 && timer == which) {
      // Nothing is queued but this check: the thread ends as soon as it returns. The next task
      // starts a new timer.
      which.shutdown();
      timer = null;
    }
  }

  private static ScheduledThreadPoolExecutor newTimer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "sluice-timer");
              thread.setDaemon(true);
              return thread;
            });
    // Cancelled timers are common (a grant beats its deadline); do not let them pile up.
    t.setRemoveOnCancelPolicy(true);
    t.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return t;
  }

  @Override
  public String toString() {
    return "TimeSource.system()";
  }
}
