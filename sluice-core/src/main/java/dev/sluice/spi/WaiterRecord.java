/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;

/**
 * A queued request as a store persists it.
 *
 * @param id the queue entry's id, which becomes the lease id when it is granted
 * @param owner the waiting session's id
 * @param ownerRef the owner's local reference to the request, meaningful only to that owner
 * @param weight concurrency units and tokens it needs
 * @param enqueuedAt store time it joined the queue, epoch milliseconds
 * @param queueDeadline store time after which any transition drops it, or {@link PoolState#NEVER}
 * @param leaseLifetime lifetime of the lease it will get in milliseconds, or {@code -1} for none
 */
public record WaiterRecord(
    long id,
    String owner,
    long ownerRef,
    long weight,
    long enqueuedAt,
    long queueDeadline,
    long leaseLifetime) {
  /** Checks the components. */
  public WaiterRecord {
    Objects.requireNonNull(owner, "owner");
  }
}
