/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A limiter's local deadlines — queue timeouts, attempt timeouts, execution deadlines — kept in
 * order, with one timer of the clock armed while any is pending. Nothing is armed while the queue
 * is empty.
 *
 * <p>The timer is armed lazily: a new deadline re-arms it only when it is earlier than the armed
 * one, and cancelling the earliest deadline leaves the timer where it is unless nothing is left.
 * Most deadlines are cancelled long before they are due (a task returns well within its attempt
 * timeout), so under load a deadline costs an insertion and a removal here instead of a timer of
 * the clock each; the price is that the timer may fire at a deadline that was cancelled, once, and
 * is then armed for the earliest one left. It never fires "just to check": every time it fires at
 * was a real deadline.
 *
 * <p>On the system clock ({@link TimeSource#system()}) the queue passes each deadline straight to
 * the clock: its timers are a heap of its own, where a timer costs what an entry here costs, so a
 * queue in front of it would only double the work (a managed call arms and cancels one per
 * attempt). Any other clock, a manual one in tests included, gets the one timer described above.
 *
 * <p>Thread-safe. A {@link ReentrantLock} rather than a monitor: the queue is shared by every
 * thread of the limiter, and with more of them than cores a contended monitor spins on the cores
 * its holder needs.
 */
final class DeadlineQueue {
  private final TimeSource clock;
  private final ReentrantLock lock = new ReentrantLock();
  // Guarded by lock.
  private final PriorityQueue<Entry> entries = new PriorityQueue<>();
  private TimeSource.Timer timer;
  private long armedAt;
  private long armings;
  private long sequence;

  /** Whether deadlines go straight to the clock (the system one); see the type's description. */
  private final boolean direct;

  DeadlineQueue(TimeSource clock) {
    this.clock = clock;
    this.direct = clock == TimeSource.system();
  }

  /**
   * Runs {@code action} at monotonic time {@code atNanos} unless cancelled first.
   *
   * @return a handle, for cancelling
   */
  TimeSource.Timer add(long atNanos, Runnable action) {
    if (direct) {
      return clock.scheduleAtNanos(action, atNanos);
    }
    Entry e;
    lock.lock();
    try {
      e = new Entry(this, atNanos, sequence++, action);
      entries.add(e);
      if (timer == null || atNanos < armedAt) {
        arm(atNanos);
      }
    } finally {
      lock.unlock();
    }
    return e;
  }

  /**
   * Runs {@code action} after {@code delayNanos} on the clock's monotonic time unless cancelled
   * first; like {@link TimeSource#schedule}, the action runs on the timer's thread and must only
   * hand work off.
   */
  TimeSource.Timer schedule(Runnable action, long delayNanos) {
    return add(clock.monotonicNanos() + delayNanos, action);
  }

  private void remove(Entry e) {
    lock.lock();
    try {
      // The timer stays where it is unless nothing is left (see the type's description).
      if (entries.remove(e) && entries.isEmpty()) {
        disarm();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether a timer is armed; for tests that count timers. */
  boolean armed() {
    lock.lock();
    try {
      return timer != null;
    } finally {
      lock.unlock();
    }
  }

  private void arm(long atNanos) {
    disarm();
    armedAt = atNanos;
    long arming = ++armings;
    // At the deadline itself: the system clock needs no reading for it.
    timer = clock.scheduleAtNanos(() -> fire(arming), atNanos);
  }

  private void disarm() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  private void fire(long arming) {
    List<Entry> due = new ArrayList<>();
    lock.lock();
    try {
      if (arming != armings) {
        // Replaced while it was firing: the newer timer is the one that counts.
        return;
      }
      timer = null;
      long now = clock.monotonicNanos();
      while (!entries.isEmpty() && entries.peek().atNanos <= now) {
        due.add(entries.poll());
      }
      if (!entries.isEmpty()) {
        arm(entries.peek().atNanos);
      }
    } finally {
      lock.unlock();
    }
    for (Entry e : due) {
      e.action.run();
    }
  }

  /** A scheduled deadline. */
  static final class Entry implements Comparable<Entry>, TimeSource.Timer {
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
    @Override
    public void cancel() {
      queue.remove(this);
    }

    @Override
    public int compareTo(Entry o) {
      int c = Long.compare(atNanos, o.atNanos);
      return c != 0 ? c : Long.compare(sequence, o.sequence);
    }
  }
}
