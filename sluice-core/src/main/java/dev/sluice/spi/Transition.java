/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

/**
 * One step of the pool's algorithm: reads and changes the state, given the store's time and the
 * owners the store has proven dead. A transition does no I/O and reads no clock of its own, so
 * every store runs the same algorithm.
 *
 * <p>A transition either completes and leaves the state consistent, or throws before changing it.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface Transition<R> {
  /**
   * Applies the step.
   *
   * @param state the pool's state, owned by the caller for the duration of the call
   * @param context the store's time and dead owners
   * @return the result
   */
  R apply(PoolState state, TransitionContext context);
}
