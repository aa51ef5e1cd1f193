/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * New work was refused because the pool drains ({@link Maintenance#drain()}): until someone resumes
 * that drain's generation, every process refuses new work on the pool, while work accepted before
 * the drain goes on. Nothing was queued or spent.
 */
public final class PoolDrainingException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final long generation;

  /**
   * Creates the exception.
   *
   * @param pool the pool
   * @param generation the running drain's generation
   */
  public PoolDrainingException(String pool, long generation) {
    super(
        "pool '"
            + pool
            + "' drains (generation "
            + generation
            + "): new work is refused until that generation is resumed");
    this.generation = generation;
  }

  /** Returns the running drain's generation. */
  public long generation() {
    return generation;
  }
}
