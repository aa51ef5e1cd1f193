/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;
import java.util.Set;

/**
 * What a store tells {@link PoolAlgorithm#apply} besides the state and the command.
 *
 * @param now the store's time in epoch milliseconds
 * @param deadOwners owners proven dead (for SQLite, by taking their lifetime locks), whose leases
 *     and queue entries the command reclaims; usually empty
 * @param sequence the store's count of commands applied to this pool in this JVM, this one
 *     included: it rises by at least one per command, so owners can order outcomes that reach them
 *     on different threads (see {@link PoolSession#appliedSequence()})
 * @param atIssuersReading whether {@code now} is the issuer's own reading of the store's clock,
 *     taken just before it sent the command ({@link PoolSession#execute(PoolCommand, long)}), and
 *     the store applied the command without waiting for another: the issuer may then take its
 *     reading as the moment the command took effect, and need not read the clock again; false
 *     whenever a store cannot tell
 */
public record PoolContext(
    long now, Set<String> deadOwners, long sequence, boolean atIssuersReading) {
  /** Checks the components. */
  public PoolContext {
    Objects.requireNonNull(deadOwners, "deadOwners");
  }

  /**
   * A context whose time is not known to be the issuer's reading.
   *
   * @param now the store's time in epoch milliseconds
   * @param deadOwners owners proven dead, whose leases and queue entries the command reclaims
   * @param sequence the command's place in the store's order
   */
  public PoolContext(long now, Set<String> deadOwners, long sequence) {
    this(now, deadOwners, sequence, false);
  }

  /**
   * A context with no dead owners.
   *
   * @param now the store's time in epoch milliseconds
   * @param sequence the command's place in the store's order
   * @return the context
   */
  public static PoolContext at(long now, long sequence) {
    return new PoolContext(now, Set.of(), sequence);
  }
}
