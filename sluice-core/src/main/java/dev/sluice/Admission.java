/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a granted request holds: its lease, when the store granted it, when the lease expires, its
 * weight and its fencing token.
 *
 * <p>Times come from the store's clock at the transaction that granted the lease, even when the
 * callback started later. The fencing token is strictly increasing per pool and never reused, so a
 * downstream system given the token can refuse a holder whose lease was superseded (with {@code
 * maxConcurrent(1)}, a newer token means the older lease is no longer exclusive).
 *
 * <p>On a pool with {@link LimiterConfig#localHandOffs()} above 0, a unit passed from request to
 * request inside a JVM keeps its lease: the requests it serves in turn share the lease id, each
 * {@code grantedAt} is the time of the pass, and each gets its own token, which rises strictly
 * along the unit (and, with {@code maxConcurrent(1)}, in admission order).
 *
 * @param leaseId the lease's id, unique in its pool and never reused
 * @param grantedAt when the store granted the lease
 * @param expiresAt when the lease expires, or empty if it never does
 * @param weight the concurrency units held and tokens spent
 * @param fencingToken strictly increasing per pool, never reused
 */
public record Admission(
    long leaseId, Instant grantedAt, Optional<Instant> expiresAt, long weight, long fencingToken) {

  /** Checks the components. */
  public Admission {
    Objects.requireNonNull(grantedAt, "grantedAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
