/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Local deadlines (queue timeouts) kept in order, with one timer armed for the earliest. Nothing is
 * armed while the queue is empty, and the timer never fires "just to check".
 *
 * <p>Thread-safe.
 */
final class DeadlineQueue {
  private final TimeSource clock;
  private final PriorityQueue<Entry> entries = new PriorityQueue<>();
  private TimeSource.Timer timer;
  private long armedAt;
  private long sequence;

  DeadlineQueue(TimeSource clock) {
    this.clock = clock;
  }

  /**
   * Runs {@code action} at monotonic time {@code atNanos} unless cancelled first.
   *
   * @return the entry, for cancelling
   */
  Entry add(long atNanos, Runnable action) {
    Entry e;
    synchronized (this) {
      e = new Entry(this, atNanos, sequence++, action);
      entries.add(e);
      if (entries.peek() == e) {
        arm(atNanos);
      }
    }
    return e;
  }

  private void remove(Entry e) {
    synchronized (this) {
      boolean wasHead = entries.peek() == e;
      entries.remove(e);
      if (entries.isEmpty()) {
        disarm();
      } else if (wasHead) {
        arm(entries.peek().atNanos);
      }
    }
  }

  /** Whether a timer is armed; for tests that count timers. */
  synchronized boolean armed() {
    return timer != null;
  }

  private void arm(long atNanos) {
    if (timer != null && armedAt == atNanos) {
      return;
    }
    disarm();
    armedAt = atNanos;
    timer = clock.schedule(this::fire, atNanos - clock.monotonicNanos());
  }

  private void disarm() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  private void fire() {
    List<Entry> due = new ArrayList<>();
    synchronized (this) {
      timer = null;
      long now = clock.monotonicNanos();
      while (!entries.isEmpty() && entries.peek().atNanos <= now) {
        due.add(entries.poll());
      }
      if (!entries.isEmpty()) {
        arm(entries.peek().atNanos);
      }
    }
    for (Entry e : due) {
      e.action.run();
    }
  }

  /** A scheduled deadline. */
  static final class Entry implements Comparable<Entry> {
    private final DeadlineQueue queue;
    private final long atNanos;
    private final long sequence;
    private final Runnable action;

    private Entry(DeadlineQueue queue, long atNanos, long sequence, Runnable action) {
      this.queue = queue;
      this.atNanos = atNanos;
      this.sequence = sequence;
      this.action = action;
    }

    /** Cancels the deadline; does nothing if it already ran. */
    void cancel() {
      queue.remove(this);
    }

    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(atNanos, o.atNanos);
      return c != 0 ? c : Long.compare(sequence, o.sequence);
    }
  }
}
