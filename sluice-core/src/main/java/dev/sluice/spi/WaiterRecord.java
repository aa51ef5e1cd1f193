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
 * @param attempt whether it is an attempt of a managed execution; its lease will say so
 */
public record WaiterRecord(
    long id,
    String owner,
    long ownerRef,
    long weight,
    long enqueuedAt,
    long queueDeadline,
    long leaseLifetime,
    boolean attempt) {
  /** Checks the components. */
  public WaiterRecord {
    Objects.requireNonNull(owner, "owner");
  }

  /**
   * A queued request that is no attempt of a managed execution: a {@code schedule}'s or an {@code
   * acquire}'s.
   *
   * @param id the queue entry's id
   * @param owner the waiting session's id
   * @param ownerRef the owner's local reference to the request
   * @param weight concurrency units and tokens it needs
   * @param enqueuedAt store time it joined the queue, epoch milliseconds
   * @param queueDeadline store time after which any transition drops it, or {@link PoolState#NEVER}
   * @param leaseLifetime lifetime of the lease it will get in milliseconds, or {@code -1} for none
   */
  public WaiterRecord(
      long id,
      String owner,
      long ownerRef,
      long weight,
      long enqueuedAt,
      long queueDeadline,
      long leaseLifetime) {
    this(id, owner, ownerRef, weight, enqueuedAt, queueDeadline, leaseLifetime, false);
  }

  /** This request marked as an attempt of a managed execution. */
  public WaiterRecord asAttempt() {
    return new WaiterRecord(
        id, owner, ownerRef, weight, enqueuedAt, queueDeadline, leaseLifetime, true);
  }
}
