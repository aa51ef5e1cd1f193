/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a pool's bounded diagnostics trace: a lease admitted, released, expired or
 * reclaimed, a waiter that timed out, a refill or a reservoir adjustment.
 *
 * @param sequence position in the pool's trace, increasing
 * @param kind what happened
 * @param leaseId the lease or queue entry concerned, or {@code 0}
 * @param owner the owner concerned, or empty
 * @param activeWeight the pool's held weight after the event
 * @param at the store time of the event
 */
public record TraceEvent(
    long sequence, Kind kind, long leaseId, String owner, long activeWeight, Instant at) {

  /** Checks the components. */
  public TraceEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(at, "at");
  }

  /** What a trace entry records. */
  public enum Kind {
    /** A lease was granted. */
    ADMITTED,
    /** A lease was released by its holder. */
    RELEASED,
    /** A lease passed its expiry and its weight returned to the pool. */
    EXPIRED,
    /** A dead owner's lease or queue entry was removed. */
    RECLAIMED,
    /** A queue entry passed its queue deadline and was dropped. */
    TIMED_OUT,
    /** A queue entry was withdrawn by its owner. */
    WITHDRAWN,
    /** A refill reset the reservoir. */
    REFRESHED,
    /** {@code incrementReservoir} changed the balance. */
    ADJUSTED
  }
}
