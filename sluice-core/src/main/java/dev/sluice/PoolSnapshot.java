/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A consistent view of one pool, taken in one store transaction: the held weight, the reservoir,
 * every live lease with its owner, the waiters in order, and the recent trace.
 *
 * @param takenAt the store time of the snapshot
 * @param config the pool's configuration
 * @param activeWeight the total weight of live leases
 * @param reservoir the token balance, or empty for unlimited
 * @param leases the live leases, in grant order
 * @param waiters the queue, head first
 * @param trace the most recent trace entries, oldest first, bounded by the store's setting
 * @param nextRefill when the reservoir is next reset, or empty without refill
 */
public record PoolSnapshot(
    Instant takenAt,
    LimiterConfig config,
    long activeWeight,
    OptionalLong reservoir,
    List<LeaseInfo> leases,
    List<WaiterInfo> waiters,
    List<TraceEvent> trace,
    Optional<Instant> nextRefill) {

  /** Checks the components and copies the lists. */
  public PoolSnapshot {
    Objects.requireNonNull(takenAt, "takenAt");
    Objects.requireNonNull(nextRefill, "nextRefill");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(reservoir, "reservoir");
    leases = List.copyOf(leases);
    waiters = List.copyOf(waiters);
    trace = List.copyOf(trace);
  }

  /** A snapshot without refill information (the reservoir is never reset, or it is not known). */
  public PoolSnapshot(
      Instant takenAt,
      LimiterConfig config,
      long activeWeight,
      OptionalLong reservoir,
      List<LeaseInfo> leases,
      List<WaiterInfo> waiters,
      List<TraceEvent> trace) {
    this(takenAt, config, activeWeight, reservoir, leases, waiters, trace, Optional.empty());
  }

  /**
   * A live lease.
   *
   * @param leaseId the lease's id
   * @param owner the owner (one per process per pool) that holds it
   * @param weight its weight
   * @param grantedAt when it was granted
   * @param expiresAt when it expires, or empty
   * @param fencingToken its fencing token
   */
  public record LeaseInfo(
      long leaseId,
      String owner,
      long weight,
      Instant grantedAt,
      Optional<Instant> expiresAt,
      long fencingToken) {
    /** Checks the components. */
    public LeaseInfo {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(grantedAt, "grantedAt");
      Objects.requireNonNull(expiresAt, "expiresAt");
    }
  }

  /**
   * A queued request.
   *
   * @param entryId the queue entry's id; a grant makes it the lease id
   * @param owner the owner that waits
   * @param weight its weight
   * @param enqueuedAt when it joined the queue
   * @param queueDeadline when the store drops it, or empty
   */
  public record WaiterInfo(
      long entryId,
      String owner,
      long weight,
      Instant enqueuedAt,
      Optional<Instant> queueDeadline) {
    /** Checks the components. */
    public WaiterInfo {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(enqueuedAt, "enqueuedAt");
      Objects.requireNonNull(queueDeadline, "queueDeadline");
    }
  }
}
