/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.support.ChangeCounter;

/**
 * A runtime's one timer: armed for the earliest durable timer an idle worker saw, it bumps the
 * workers' {@link ChangeCounter} when that moment comes. A later moment is left to the next claim,
 * which reads the store again; an earlier one replaces it. After {@link #close()} nothing is armed.
 *
 * <p>Thread-safe. Nothing here blocks.
 */
final class WakeTimer implements AutoCloseable {
  private final TimeSource clock;
  private final ChangeCounter work;
  private long armedAt = Long.MAX_VALUE;
  private TimeSource.Timer armed;
  private boolean closed;

  WakeTimer(TimeSource clock, ChangeCounter work) {
    this.clock = clock;
    this.work = work;
  }

  /** Arms the timer for {@code dueAt} (store epoch milliseconds) unless one is due no later. */
  synchronized void armAt(long dueAt) {
    if (closed || (armed != null && armedAt <= dueAt)) {
      return;
    }
    if (armed != null) {
      armed.cancel();
    }
    armedAt = dueAt;
    armed = clock.scheduleAt(() -> fired(dueAt), dueAt);
  }

  private void fired(long dueAt) {
    synchronized (this) {
      if (armedAt == dueAt) {
        armed = null;
        armedAt = Long.MAX_VALUE;
      }
    }
    work.bump();
  }

  /** Cancels the armed timer; later calls to {@link #armAt} arm nothing. */
  @Override
  public synchronized void close() {
    closed = true;
    if (armed != null) {
      armed.cancel();
      armed = null;
    }
  }
}
