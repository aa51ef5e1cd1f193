/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.memory;

import dev.sluice.memory.MemoryStore;
import dev.sluice.testkit.LimiterConformanceSuite;
import dev.sluice.testkit.StoreFactory;

/** The reference store runs the whole conformance suite. */
class MemoryStoreConformanceTest extends LimiterConformanceSuite {
  @Override
  protected StoreFactory stores() {
    return (name, clock) -> MemoryStore.named(name, clock);
  }
}
