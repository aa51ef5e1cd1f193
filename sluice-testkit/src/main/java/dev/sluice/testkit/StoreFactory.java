/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.TimeSource;
import dev.sluice.spi.PoolStore;

/**
 * How a conformance suite gets stores: one handle per call, naming the pool {@code poolName}, on
 * the given clock. Two calls with the same name must reach the same pool.
 */
@FunctionalInterface
public interface StoreFactory {
  /**
   * Returns a handle on the pool.
   *
   * @param poolName a name unique to the test
   * @param clock the clock the store must use for its deadlines
   * @return the store
   */
  PoolStore create(String poolName, TimeSource clock);

  /**
   * Whether the store keeps time on the given clock. Stores whose clock is a server's (PostgreSQL,
   * Redis) return false, and the suite's manual-clock tests are skipped as assumptions.
   */
  default boolean followsGivenClock() {
    return true;
  }
}
