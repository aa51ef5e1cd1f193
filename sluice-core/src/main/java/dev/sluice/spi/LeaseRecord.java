/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;

/**
 * A live lease as a store persists it.
 *
 * @param id the lease's id; for a request that waited, its queue entry id
 * @param owner the owning session's id
 * @param ownerRef the owner's local reference to the request, meaningful only to that owner
 * @param weight concurrency units held
 * @param grantedAt store time of the grant, epoch milliseconds
 * @param expiresAt store time of expiry, or {@link PoolState#NEVER}
 * @param fencingToken the pool's strictly increasing token for this grant
 * @param attempt whether it admitted an attempt of a managed execution, whose operation the pool
 *     records; a dead owner's other leases leave an unconfirmed operation of their own
 */
public record LeaseRecord(
    long id,
    String owner,
    long ownerRef,
    long weight,
    long grantedAt,
    long expiresAt,
    long fencingToken,
    boolean attempt) {
  /** Checks the components. */
  public LeaseRecord {
    Objects.requireNonNull(owner, "owner");
  }

  /**
   * A lease that admitted no attempt of a managed execution: a {@code schedule}'s or an {@code
   * acquire}'s.
   *
   * @param id the lease's id
   * @param owner the owning session's id
   * @param ownerRef the owner's local reference to the request
   * @param weight concurrency units held
   * @param grantedAt store time of the grant, epoch milliseconds
   * @param expiresAt store time of expiry, or {@link PoolState#NEVER}
   * @param fencingToken the pool's token for this grant
   */
  public LeaseRecord(
      long id,
      String owner,
      long ownerRef,
      long weight,
      long grantedAt,
      long expiresAt,
      long fencingToken) {
    this(id, owner, ownerRef, weight, grantedAt, expiresAt, fencingToken, false);
  }

  /** This lease marked as the admission of an attempt of a managed execution. */
  public LeaseRecord asAttempt() {
    return new LeaseRecord(id, owner, ownerRef, weight, grantedAt, expiresAt, fencingToken, true);
  }
}
