/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.util.Objects;

/**
 * One step in the life of a request, reported to a {@link LimiterListener}.
 *
 * @param kind what happened
 * @param pool the pool's name
 * @param leaseId the lease or queue entry id, or {@code 0} before the store assigned one
 * @param weight the request's weight
 * @param monotonicNanos when it happened, on the limiter's monotonic clock
 */
public record LimiterEvent(Kind kind, String pool, long leaseId, long weight, long monotonicNanos) {

  /** Checks the components. */
  public LimiterEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(pool, "pool");
  }

  /** The steps of a request. */
  public enum Kind {
    /** The request joined the pool's queue. */
    QUEUED,
    /** The store granted a lease. */
    GRANTED,
    /** The callback (or the caller holding a lease) started. */
    STARTED,
    /** The lease was released. */
    RELEASED,
    /** The request was withdrawn before it started: cancelled, completed or closed. */
    WITHDRAWN,
    /** The request did not start within its queue timeout. */
    TIMED_OUT,
    /** The lease had expired before the callback could start. */
    EXPIRED,
    /**
     * The store declared this JVM's owner dead and reclaimed the request's queue entry or lease
     * (see {@link OwnerLostException}); a request that had not started fails.
     */
    OWNER_LOST
  }
}
