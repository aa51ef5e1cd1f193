/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * A maintenance call named a drain generation that is not the pool's running drain: it was resumed
 * (perhaps by someone else), or a newer drain began. Nothing was changed; a stale generation can
 * never resume a newer drain.
 */
public final class StaleDrainException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final long generation;
  private final long current;

  /**
   * Creates the exception.
   *
   * @param pool the pool
   * @param generation the generation named
   * @param current the pool's latest generation
   * @param draining whether the latest generation drains now
   */
  public StaleDrainException(String pool, long generation, long current, boolean draining) {
    super(
        "drain generation "
            + generation
            + " of pool '"
            + pool
            + "' is not the running drain: the latest is generation "
            + current
            + (draining ? ", draining" : ", resumed")
            + "; nothing was changed");
    this.generation = generation;
    this.current = current;
  }

  /** Returns the generation named. */
  public long generation() {
    return generation;
  }

  /** Returns the pool's latest generation. */
  public long current() {
    return current;
  }
}
