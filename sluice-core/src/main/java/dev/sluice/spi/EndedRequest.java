/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.Objects;

/**
 * A queued request that a command ended without a lease its owner can use. Its owner fails the
 * request with the {@linkplain Reason reason}.
 *
 * @param entryId the queue entry (and lease id, if it was granted)
 * @param owner the request's owner
 * @param ownerRef the owner's reference to the request
 * @param reason why it ended
 * @param enqueuedAt store time it joined the queue, or {@code 0} if the store no longer knows
 * @param queueDeadline its queue deadline, or {@link PoolState#NEVER} (also when not known)
 */
public record EndedRequest(
    long entryId, String owner, long ownerRef, Reason reason, long enqueuedAt, long queueDeadline) {
  /** Checks the components. */
  public EndedRequest {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(reason, "reason");
  }

  /** Why a request ended. */
  public enum Reason {
    /** It waited past its queue deadline. */
    TIMED_OUT,
    /** Its owner was proven dead and the store reclaimed what it held. */
    RECLAIMED,
    /**
     * It was granted, but the lease expired or was reclaimed before its owner saw the grant (the
     * owner was paused, stopped or cut off).
     */
    LEASE_LOST
  }

  static EndedRequest of(WaiterRecord w, Reason reason) {
    return new EndedRequest(
        w.id(), w.owner(), w.ownerRef(), reason, w.enqueuedAt(), w.queueDeadline());
  }
}
