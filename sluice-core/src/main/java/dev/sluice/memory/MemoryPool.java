/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.spi.PoolState;

/** One in-JVM pool: its state, guarded by this object's monitor. */
final class MemoryPool {
  private final PoolState state;

  MemoryPool(PoolState state) {
    this.state = state;
  }

  PoolState state() {
    return state;
  }
}
