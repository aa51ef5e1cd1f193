/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.sql.SQLException;

/**
 * One thread's handle on a shared cap: acquire some units, release them. Not thread-safe: each
 * thread takes its own from {@link Contender#forThread()}.
 */
interface Permits extends AutoCloseable {

  /**
   * Blocks until {@code weight} units are held by this handle.
   *
   * @param weight units, at most the cap
   * @throws Exception if the store fails or the thread is interrupted
   */
  void acquire(int weight) throws Exception;

  /**
   * Releases the units the last {@link #acquire(int)} took.
   *
   * @throws Exception if the store fails
   */
  void release() throws Exception;

  /**
   * One admission and release of one unit with nothing in between: the measured cycle.
   *
   * @throws Exception if the store fails or the thread is interrupted
   */
  default void cycle() throws Exception {
    acquire(1);
    release();
  }

  /**
   * Releases anything still held and gives back the handle's resources; holds nothing afterwards.
   *
   * @throws SQLException if the naive semaphore's connection fails
   */
  @Override
  void close() throws SQLException;
}
