/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counter of things that may have changed a gate home (a pulse, an owner's death), on which
 * waiters sleep. A waiter reads {@link #count()} before its transaction and then sleeps in {@link
 * #awaitAfter} only if nothing was counted since, so no wake-up between the read and the sleep is
 * lost.
 *
 * <p>Thread-safe. {@link #awaitAfter} blocks.
 */
public final class Changes {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long count;

  /** Counts one change and wakes every waiter. */
  public void bump() {
    lock.lock();
    try {
      count++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The changes counted so far. */
  public long count() {
    lock.lock();
    try {
      return count;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sleeps until the count passes {@code seen} or {@code deadlineNanos} ({@link System#nanoTime})
   * is reached.
   *
   * @return whether something changed
   * @throws InterruptedException if interrupted while sleeping
   */
  public boolean awaitAfter(long seen, long deadlineNanos) throws InterruptedException {
    lock.lock();
    try {
      while (count == seen) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Like {@link #awaitAfter}, for a duration from now. */
  public boolean awaitAfter(long seen, long timeout, TimeUnit unit) throws InterruptedException {
    return awaitAfter(seen, System.nanoTime() + unit.toNanos(timeout));
  }
}
