/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.TimeSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that stands still unless set; its timers never run. For unit tests of pure rules. */
final class FixedClock implements TimeSource {
  final AtomicLong millis = new AtomicLong(1_000_000);

  @Override
  public long wallMillis() {
    return millis.get();
  }

  @Override
  public long monotonicNanos() {
    return millis.get() * 1_000_000;
  }

  @Override
  public Timer schedule(Runnable task, long delayNanos) {
    return () -> {};
  }
}
