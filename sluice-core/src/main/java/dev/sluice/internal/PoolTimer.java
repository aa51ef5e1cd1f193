/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.TimeSource;
import dev.sluice.spi.PoolState;

/**
 * One timer for a pool's next useful deadline, re-armed from every outcome and trusting only the
 * newest: outcomes reach this JVM on different threads, and an older one's deadline must not
 * replace a newer one's. Their order is the store's {@linkplain
 * dev.sluice.spi.PoolOutcome#sequence() sequence}.
 *
 * <p>Thread-safe.
 */
final class PoolTimer {
  private final TimeSource clock;
  private final Runnable onDue;
  private TimeSource.Timer timer;
  private volatile long deadline = PoolState.NEVER;
  private long sequence = Long.MIN_VALUE;
  private boolean stopped;

  PoolTimer(TimeSource clock, Runnable onDue) {
    this.clock = clock;
    this.onDue = onDue;
  }

  /** Arms the timer for {@code at} (store time), as the outcome of {@code seq} says. */
  void rearm(long at, long seq) {
    // Nothing armed and nothing to arm: the common case needs no lock. Racing outcomes can at
    // worst leave one spurious timer, whose tick then finds nothing to do.
    if (at == PoolState.NEVER && deadline == PoolState.NEVER) {
      return;
    }
    synchronized (this) {
      if (seq < sequence || stopped) {
        return;
      }
      sequence = seq;
      if (at == deadline && (timer != null || at == PoolState.NEVER)) {
        return;
      }
      cancelLocked();
      deadline = at;
      if (at != PoolState.NEVER) {
        timer = clock.scheduleAt(this::fire, at);
      }
    }
  }

  private void fire() {
    synchronized (this) {
      timer = null;
      deadline = PoolState.NEVER;
      if (stopped) {
        return;
      }
    }
    onDue.run();
  }

  /** Cancels the timer for good, as after a store failure or a close. */
  synchronized void stop() {
    stopped = true;
    cancelLocked();
  }

  private void cancelLocked() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    deadline = PoolState.NEVER;
  }
}
