/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Unique memory-pool names, one per JMH trial. Memory pools live for the life of the JVM, so a
 * trial that reused a name would inherit the previous trial's spacing, reservoir balance and
 * fencing counter; a fresh name starts every trial from an empty pool.
 *
 * <p>Thread-safe; never blocks.
 */
public final class PoolKeys {
  private static final AtomicLong SEQUENCE = new AtomicLong();

  private PoolKeys() {}

  /**
   * Returns a pool name not used before in this JVM.
   *
   * @param label what the pool is for, kept in the name to make traces readable
   * @return {@code "bench-<label>-<nanoTime>-<n>"}
   */
  public static String fresh(String label) {
    return "bench-" + label + "-" + System.nanoTime() + "-" + SEQUENCE.incrementAndGet();
  }
}
