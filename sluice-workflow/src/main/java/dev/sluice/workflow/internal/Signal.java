/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counter of wake-ups (a store change, a timer falling due, the runtime closing) on which workers
 * and result waiters sleep. A waiter reads {@link #count()} before it reads the store and sleeps in
 * {@link #awaitAfter} only if nothing was counted since, so no wake-up between the read and the
 * sleep is lost. There is no timed wait: deadlines arrive as timers that {@link #bump()}.
 *
 * <p>Thread-safe. {@link #awaitAfter} blocks.
 */
final class Signal {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long count;

  /** Counts one wake-up and wakes every waiter. */
  void bump() {
    lock.lock();
    try {
      count++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The wake-ups counted so far. */
  long count() {
    lock.lock();
    try {
      return count;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sleeps until the count passes {@code seen}.
   *
   * @throws InterruptedException if interrupted while sleeping
   */
  void awaitAfter(long seen) throws InterruptedException {
    lock.lock();
    try {
      while (count == seen) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }
}
