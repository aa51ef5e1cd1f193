/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;
import java.util.Set;

/**
 * What a store tells a transition: the store's current time and the owners it has proven dead (for
 * SQLite, by taking their lifetime locks), whose leases and queue entries the transition reclaims.
 *
 * @param now the store's time in epoch milliseconds
 * @param deadOwners owners proven dead, usually empty
 */
public record TransitionContext(long now, Set<String> deadOwners) {
  /** Checks the components. */
  public TransitionContext {
    Objects.requireNonNull(deadOwners, "deadOwners");
  }

  /**
   * A context with no dead owners.
   *
   * @param now the store's time in epoch milliseconds
   * @return the context
   */
  public static TransitionContext at(long now) {
    return new TransitionContext(now, Set.of());
  }
}
