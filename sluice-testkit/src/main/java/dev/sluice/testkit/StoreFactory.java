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
 *
 * <p>Every store keeps its shared deadlines on the clock it is given here, including stores whose
 * production clock is a server's (PostgreSQL, Redis): they take a client-side clock option for
 * tests, so no case of the suite is ever skipped.
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
}
