/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import dev.sluice.TimeSource;
import dev.sluice.workflow.spi.WorkflowStore;

/**
 * How the workflow conformance suite gets stores: one handle per call, naming the store {@code
 * name}, on the given clock. Two calls with the same name must reach the same executions (that is
 * how the suite restarts a runtime).
 */
@FunctionalInterface
public interface WorkflowStoreFactory {
  /**
   * Returns a handle on the store.
   *
   * @param name a name unique to the test
   * @param clock the clock the store must use for its timers
   * @return the store
   */
  WorkflowStore create(String name, TimeSource clock);
}
