/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A clock for the HTTP tests that moves only when {@link #advance} moves it, wall and monotonic
 * time together; timers that fall due run on the advancing thread, in order. The HTTP client and
 * server keep real time: only the limiter's waits (retry delays, cooldowns, breaker pauses,
 * timeouts) follow this clock.
 *
 * <p>Thread-safe.
 */
final class ManualTime implements TimeSource {
  private static final long START_NANOS = 1_000_000_000L;

  private final long startMillis;
  private final PriorityQueue<Due> due = new PriorityQueue<>();
  private long nanos = START_NANOS;
  private long sequence;

  ManualTime(Instant start) {
    this.startMillis = start.toEpochMilli();
  }

  /** One timer: runs at most once, never after its cancel. */
  private record Due(long atNanos, long sequence, Runnable task, AtomicBoolean done)
      implements Comparable<Due> {
    @Override
    public int compareTo(Due o) {
      int c = Long.compare(atNanos, o.atNanos);
      return c != 0 ? c : Long.compare(sequence, o.sequence);
    }

    void run() {
      if (done.compareAndSet(false, true)) {
        task.run();
      }
    }
  }

  synchronized Instant now() {
    return Instant.ofEpochMilli(wallMillis());
  }

  @Override
  public synchronized long wallMillis() {
    return startMillis + (nanos - START_NANOS) / 1_000_000L;
  }

  @Override
  public synchronized long monotonicNanos() {
    return nanos;
  }

  @Override
  public synchronized Timer schedule(Runnable task, long delayNanos) {
    Due d = new Due(nanos + Math.max(0, delayNanos), sequence++, task, new AtomicBoolean());
    if (delayNanos <= 0) {
      // Due already: it runs at once on a thread of its own, as a real timer would.
      Thread t = new Thread(d::run, "manual-time-due");
      t.setDaemon(true);
      t.start();
    } else {
      due.add(d);
    }
    return () -> {
      d.done().set(true);
      synchronized (ManualTime.this) {
        due.remove(d);
      }
    };
  }

  /** Moves time forward by {@code amount}, running each timer at its own time, in order. */
  void advance(Duration amount) {
    long target;
    synchronized (this) {
      target = nanos + amount.toNanos();
    }
    while (true) {
      Due next;
      synchronized (this) {
        next = due.peek();
        if (next == null || next.atNanos() > target) {
          nanos = target;
          return;
        }
        due.poll();
        nanos = Math.max(nanos, next.atNanos());
      }
      next.run();
    }
  }
}
