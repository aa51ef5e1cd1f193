/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A counter of things that may have changed a store (a notification, an owner's death, a timer
 * falling due), on which waiters sleep. A waiter reads {@link #count()} before it reads the store
 * and then sleeps in {@code awaitAfter} only if nothing was counted since, so no wake-up between
 * its read and its sleep is lost.
 *
 * <p>Thread-safe. The {@code awaitAfter} methods block.
 */
public final class ChangeCounter {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long count;
  private int lookers;

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

  /**
   * Counts one change and wakes one waiter, for waiters that each do the same work on a change: the
   * one woken looks, and wakes the next itself if it found something to do. Every waiter still sees
   * the count passed, so none that looks again later misses the change.
   */
  public void bumpOne() {
    lock.lock();
    try {
      count++;
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Like {@link #bumpOne()}, but wakes nobody while a waiter is looking ({@link #lookStarted()}):
   * such a waiter read the count before this change, so it looks again when its look ends (its
   * {@code awaitAfter} returns at once), or wakes the next itself; waking a sleeper as well would
   * only add a look.
   */
  public void bumpOneUnlessLooking() {
    lock.lock();
    try {
      count++;
      if (lookers == 0) {
        changed.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * A waiter that read {@link #count()} starts looking at the store; it calls {@link #lookEnded()}
   * when its look ends, and then either sleeps in {@code awaitAfter} with the count it read or
   * wakes the next waiter ({@link #bumpOne()} or {@link #bumpOneUnlessLooking()}).
   */
  public void lookStarted() {
    lock.lock();
    try {
      lookers++;
    } finally {
      lock.unlock();
    }
  }

  /** A look started by {@link #lookStarted()} ended. */
  public void lookEnded() {
    lock.lock();
    try {
      lookers--;
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
   * Sleeps until the count passes {@code seen}.
   *
   * @param seen the count the caller read before it looked at the store
   * @throws InterruptedException if interrupted while sleeping
   */
  public void awaitAfter(long seen) throws InterruptedException {
    lock.lock();
    try {
      while (count == seen) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Sleeps until the count passes {@code seen} or {@code deadlineNanos} ({@link System#nanoTime})
   * is reached.
   *
   * @param seen the count the caller read before it looked at the store
   * @param deadlineNanos when to give up
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

  /**
   * Like {@link #awaitAfter(long, long)}, for a duration from now.
   *
   * @param seen the count the caller read before it looked at the store
   * @param timeout how long to wait at most
   * @param unit the unit of {@code timeout}
   * @return whether something changed
   * @throws InterruptedException if interrupted while sleeping
   */
  public boolean awaitAfter(long seen, long timeout, TimeUnit unit) throws InterruptedException {
    return awaitAfter(seen, System.nanoTime() + unit.toNanos(timeout));
  }
}
