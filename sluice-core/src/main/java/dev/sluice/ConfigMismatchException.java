/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * A pool was opened with a configuration that differs from the one it was created with. Every user
 * of a pool must supply the identical normalized configuration; the stored pool is left unchanged.
 */
public final class ConfigMismatchException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param pool the pool that was opened
   * @param stored the configuration the pool has
   * @param requested the configuration the caller supplied
   */
  public ConfigMismatchException(String pool, LimiterConfig stored, LimiterConfig requested) {
    super(
        "pool '"
            + pool
            + "' has configuration "
            + stored
            + " but was opened with "
            + requested
            + "; every user of a pool must supply the same configuration (use a new pool for a"
            + " new configuration)");
  }
}
