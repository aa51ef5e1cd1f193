/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.local.CrashStages;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Counts the transactions one thread runs on one gate home (each takes the home's gate: {@link
 * CrashStages#GATE_HELD}), so that a test can tell a waiter that sleeps until a change from one
 * that reads the store again and again.
 *
 * <p>Thread-safe. {@link #awaitAbove} blocks.
 */
final class GateReads implements AutoCloseable {
  private final Path home;
  private final Thread reader;
  private final AutoCloseable observation;
  private long count;

  private GateReads(Path home, Thread reader) {
    this.home = home;
    this.reader = reader;
    this.observation = CrashStages.observe(this::reached);
  }

  /** Starts counting the transactions {@code reader} runs on the gate home {@code home}. */
  static GateReads of(Path home, Thread reader) {
    return new GateReads(home, reader);
  }

  private void reached(String stage, Path pool) {
    if (stage.equals(CrashStages.GATE_HELD)
        && home.equals(pool)
        && Thread.currentThread() == reader) {
      synchronized (this) {
        count++;
        notifyAll();
      }
    }
  }

  /** The transactions counted so far. */
  synchronized long count() {
    return count;
  }

  /**
   * Waits until more than {@code n} transactions were counted, for at most {@code timeout}.
   *
   * @return whether there were
   */
  synchronized boolean awaitAbove(long n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (long left; count <= n; ) {
      left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  @Override
  public void close() throws Exception {
    observation.close();
  }
}
