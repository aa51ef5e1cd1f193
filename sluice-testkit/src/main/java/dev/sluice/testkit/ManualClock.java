/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A clock that moves only when told: wall and monotonic time advance together by {@link
 * #advance(Duration)}, which runs the timers that fall due, in deadline order, on the advancing
 * thread. Lets tests of time (spacing, refill, expiry, queue timeouts) run without sleeping.
 *
 * <p>Thread-safe. {@link #pendingTimers()} tells how many timers are armed, so tests can check that
 * idle pools arm none.
 */
public final class ManualClock implements TimeSource {
  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private final long startWallMillis;
  private final long startNanos = 1_000_000_000L;
  private long wallMillis;
  private long nanos;
  private long sequence;
  private long scheduled;

  /**
   * A clock starting at {@code start}.
   *
   * @param start the initial wall time
   */
  public ManualClock(Instant start) {
    this.startWallMillis = start.toEpochMilli();
    this.wallMillis = startWallMillis;
    this.nanos = startNanos;
  }

  /** A clock starting at 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public synchronized long wallMillis() {
    return wallMillis;
  }

  @Override
  public synchronized long monotonicNanos() {
    return nanos;
  }

  /** Returns the current wall time. */
  public synchronized Instant instant() {
    return Instant.ofEpochMilli(wallMillis);
  }

  @Override
  public synchronized Timer schedule(Runnable task, long delayNanos) {
    if (delayNanos <= 0) {
      // Already due, as a real clock's timer would be: it runs at once, on its own thread.
      scheduled++;
      java.util.concurrent.atomic.AtomicBoolean cancelled =
          new java.util.concurrent.atomic.AtomicBoolean();
      Thread runner =
          new Thread(
              () -> {
                if (!cancelled.get()) {
                  task.run();
                }
              },
              "manual-clock-due");
      runner.setDaemon(true);
      runner.start();
      return () -> cancelled.set(true);
    }
    Task t = new Task(nanos + delayNanos, sequence++, task);
    tasks.add(t);
    scheduled++;
    notifyAll();
    return () -> {
      synchronized (ManualClock.this) {
        tasks.remove(t);
      }
    };
  }

  /** How many timers are armed and not yet run or cancelled. */
  public synchronized int pendingTimers() {
    return tasks.size();
  }

  /** How many timers were ever scheduled. */
  public synchronized long scheduledTimers() {
    return scheduled;
  }

  /**
   * Moves time forward, running each timer that falls due at its own time, in order.
   *
   * @param amount how far, zero or more, in whole milliseconds of wall time
   */
  public void advance(Duration amount) {
    if (amount.isNegative()) {
      throw new IllegalArgumentException("amount must not be negative, was " + amount);
    }
    long target;
    synchronized (this) {
      target = nanos + amount.toNanos();
    }
    while (true) {
      Task next;
      synchronized (this) {
        next = tasks.peek();
        if (next == null || next.atNanos > target) {
          moveTo(target);
          return;
        }
        tasks.poll();
        moveTo(Math.max(nanos, next.atNanos));
      }
      next.action.run();
    }
  }

  /** Runs the timers that are due now without moving time. */
  public void runDue() {
    advance(Duration.ZERO);
  }

  private void moveTo(long targetNanos) {
    nanos = targetNanos;
    wallMillis = startWallMillis + (nanos - startNanos) / 1_000_000;
  }

  private static final class Task implements Comparable<Task> {
    final long atNanos;
    final long sequence;
    final Runnable action;

    Task(long atNanos, long sequence, Runnable action) {
      this.atNanos = atNanos;
      this.sequence = sequence;
      this.action = action;
    }

    @Override
    public int compareTo(Task o) {
      int c = Long.compare(atNanos, o.atNanos);
      return c != 0 ? c : Long.compare(sequence, o.sequence);
    }
  }

  /**
   * Waits until a timer due between {@code fromNanos} and {@code toNanos} (monotonic, inclusive) is
   * armed, woken by each new timer, never polling; for tests that must know a delay is armed before
   * they move time past it.
   *
   * @param fromNanos the earliest due time accepted
   * @param toNanos the latest due time accepted
   * @param safety how long to wait at most
   * @return the due time of the earliest such timer
   * @throws AssertionError if none was armed within {@code safety}
   * @throws InterruptedException if interrupted while waiting
   */
  public synchronized long awaitTimerDue(long fromNanos, long toNanos, Duration safety)
      throws InterruptedException {
    long end = System.nanoTime() + safety.toNanos();
    while (true) {
      long found = Long.MAX_VALUE;
      for (Task t : tasks) {
        if (t.atNanos >= fromNanos && t.atNanos <= toNanos) {
          found = Math.min(found, t.atNanos);
        }
      }
      if (found != Long.MAX_VALUE) {
        return found;
      }
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "no timer due between "
                + fromNanos
                + " and "
                + toNanos
                + " ns was armed within "
                + safety
                + "; pending: "
                + pendingDueNanos());
      }
      wait(Math.max(1, left / 1_000_000L));
    }
  }

  /** Lists pending timers' due times in nanoseconds; for diagnostics. */
  public synchronized List<Long> pendingDueNanos() {
    List<Long> out = new ArrayList<>();
    for (Task t : tasks) {
      out.add(t.atNanos);
    }
    return out;
  }
}
