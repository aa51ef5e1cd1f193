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
 */
public record LeaseRecord(
    long id,
    String owner,
    long ownerRef,
    long weight,
    long grantedAt,
    long expiresAt,
    long fencingToken) {
  /** Checks the components. */
  public LeaseRecord {
    Objects.requireNonNull(owner, "owner");
  }
}
