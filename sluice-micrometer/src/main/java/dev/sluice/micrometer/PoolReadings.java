/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.ControlStatus;
import dev.sluice.Limiter;
import dev.sluice.PoolSnapshot;
import dev.sluice.SluiceException;
import java.time.Duration;

/**
 * The pool's state for the gauges: one snapshot and one control read, reused for a while so a
 * scrape reads the store once, not once per gauge. A limiter that is closed or whose store fails
 * gives no reading, and the gauges show NaN.
 *
 * <p>Thread-safe; a reading blocks on the store.
 */
final class PoolReadings {
  private final Limiter limiter;
  private final long refreshNanos;

  // Guarded by this.
  private PoolSnapshot snapshot;
  private ControlStatus control;
  private long readAt;
  private boolean read;

  PoolReadings(Limiter limiter, Duration refreshEvery) {
    this.limiter = limiter;
    this.refreshNanos = refreshEvery.toNanos();
  }

  /** The snapshot, or null if the pool cannot be read. */
  synchronized PoolSnapshot snapshot() {
    refresh();
    return snapshot;
  }

  /** The control state, or null if the pool cannot be read. */
  synchronized ControlStatus control() {
    refresh();
    return control;
  }

  private void refresh() {
    long now = System.nanoTime();
    if (read && now - readAt < refreshNanos) {
      return;
    }
    try {
      snapshot = limiter.inspect();
      control = limiter.maintenance().status();
    } catch (SluiceException e) {
      snapshot = null;
      control = null;
    }
    read = true;
    readAt = now;
  }
}
