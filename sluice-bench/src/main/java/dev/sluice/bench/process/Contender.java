/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

/**
 * One process's view of a cap shared by processes: the Sluice SQLite store or the naive SQLite
 * semaphore. Thread-safe; each thread works through its own {@link Permits}.
 */
interface Contender extends AutoCloseable {

  /**
   * Returns a handle for the calling thread.
   *
   * @return a new handle
   * @throws Exception if the store cannot be reached
   */
  Permits forThread() throws Exception;

  /** Returns how many acquire attempts so far found the cap full and will retry (polling only). */
  default long emptyUpdates() {
    return 0;
  }

  /** Returns how many store calls so far failed as busy and will retry (polling only). */
  default long busyErrors() {
    return 0;
  }

  /** Detaches this process from the cap. */
  @Override
  void close();
}
