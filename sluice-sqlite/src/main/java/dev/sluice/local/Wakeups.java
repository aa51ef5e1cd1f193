/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts every wake-up of this JVM's machine-local machinery (transactions, pulse-watcher and
 * selector wake-ups), so a test can wait for the next one and show that an idle pool has none.
 *
 * <p>Thread-safe. Recording costs an atomic increment, plus a signal only while a test waits.
 */
public final class Wakeups {
  private static final AtomicLong COUNT = new AtomicLong();
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static final Condition CHANGED = LOCK.newCondition();
  private static volatile boolean awaited;

  private Wakeups() {}

  /** Records one wake-up. */
  public static void record() {
    COUNT.incrementAndGet();
    if (awaited) {
      LOCK.lock();
      try {
        CHANGED.signalAll();
      } finally {
        LOCK.unlock();
      }
    }
  }

  /** The wake-ups so far. */
  public static long count() {
    return COUNT.get();
  }

  /**
   * Waits until the count passes {@code seen} or {@code timeout} elapses.
   *
   * @return the count then
   * @throws InterruptedException if interrupted while waiting
   */
  public static long awaitAfter(long seen, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    LOCK.lock();
    try {
      awaited = true;
      long left;
      while (COUNT.get() == seen && (left = deadline - System.nanoTime()) > 0) {
        CHANGED.await(left, TimeUnit.NANOSECONDS);
      }
      return COUNT.get();
    } finally {
      awaited = false;
      LOCK.unlock();
    }
  }
}
