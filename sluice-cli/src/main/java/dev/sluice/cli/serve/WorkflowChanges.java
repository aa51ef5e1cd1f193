/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

/**
 * A count of the changes the workflow store reported, for the console's event streams to sleep on.
 * The store tells every change itself (SQLite: the writer's pulse, watched by inotify; PostgreSQL:
 * LISTEN/NOTIFY), so a stream wakes on a change and never polls; a burst of changes wakes it once
 * per re-read, as each wake reads the latest count.
 *
 * <p>Thread-safe. {@link #awaitAfter} blocks until a change or the timeout.
 */
final class WorkflowChanges {
  private long count;
  private boolean closed;

  /** Called by the store's change signal; never blocks for long. */
  synchronized void changed() {
    count++;
    notifyAll();
  }

  /** Wakes every waiter for good. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }

  /** The current count. */
  synchronized long count() {
    return count;
  }

  /**
   * Waits until the count differs from {@code seen}, the timeout passes, or {@link #close}.
   *
   * @return the count then, or -1 once closed
   */
  synchronized long awaitAfter(long seen, long timeoutMillis) throws InterruptedException {
    long end = System.nanoTime() + timeoutMillis * 1_000_000;
    while (count == seen && !closed) {
      long left = (end - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        break;
      }
      wait(left);
    }
    return closed ? -1 : count;
  }
}
