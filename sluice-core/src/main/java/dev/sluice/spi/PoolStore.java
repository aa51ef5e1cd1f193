/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;

/**
 * Where one pool's shared state lives: the in-memory reference store, a SQLite directory, a
 * PostgreSQL row, a Redis key. A store persists state, runs transitions under its own lock or
 * transaction, wakes the pool's other owners and tells which owners are dead; it holds no limiter
 * algorithm of its own.
 *
 * <p>A {@code PoolStore} is a handle: cheap to create, naming one pool. Implementations must be
 * thread-safe.
 */
public interface PoolStore {
  /** Returns the pool's name, for messages and thread names. */
  String poolName();

  /**
   * Returns the pool's identity: two handles that name the same pool (for example two spellings of
   * one directory) return equal identities, so a JVM shares one session among them.
   */
  String poolIdentity();

  /** Returns the clock of the store's shared deadlines. */
  TimeSource clock();

  /**
   * Opens the pool as a new owner, creating it with {@code config} if it does not exist.
   *
   * <p>May block on I/O and on the store's lock.
   *
   * @param config the configuration every user of the pool must share
   * @return the owner's session
   * @throws dev.sluice.ConfigMismatchException if the pool exists with another configuration
   * @throws dev.sluice.StoreFormatException if the store holds data this library cannot read
   * @throws dev.sluice.BackendFailureException if the store cannot be reached
   */
  PoolSession open(LimiterConfig config);
}
