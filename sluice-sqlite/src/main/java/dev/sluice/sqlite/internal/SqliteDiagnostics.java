/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.local.LivenessWatcher;
import dev.sluice.local.PulseWatcher;

/**
 * Counters of everything that can wake this JVM's SQLite machinery, so a test can show that an idle
 * pool makes no wake-ups at all. Not exported.
 *
 * <p>Thread-safe.
 */
public final class SqliteDiagnostics {
  private SqliteDiagnostics() {}

  /**
   * The wake-ups so far: transactions run, pulse-watcher wake-ups, selector wake-ups.
   *
   * @return three counters, in that order
   */
  public static long[] wakeups() {
    return new long[] {
      SqlitePool.batches(), PulseWatcher.instance().wakeups(), LivenessWatcher.instance().wakeups()
    };
  }
}
