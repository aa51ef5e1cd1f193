/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/**
 * Where a request is in its life in this JVM. A {@link Ticket} moves between these by
 * compare-and-set only, so exactly one party wins each race (a grant against a cancel, a timeout
 * against a start).
 */
enum TicketState {
  /** Made, and its acquire not yet answered (perhaps not yet sent). */
  PENDING,
  /** The store queued it. */
  QUEUED,
  /** It holds a unit, from the store or passed in this JVM, and has not started. */
  GRANTED,
  /** Its callback or holder runs. */
  STARTED,
  /** Over: finished, or refused by the store without anything to clean up. */
  DONE,
  /** Withdrawn after its acquire was answered, or dropped by the store. */
  WITHDRAWN,
  /** Withdrawn while its acquire was unanswered (or never sent). */
  WITHDRAWN_PENDING;

  /** Whether it waits for a unit: neither granted nor over. */
  boolean waiting() {
    return this == PENDING || this == QUEUED;
  }

  /** Whether it has not started and may still be withdrawn. */
  boolean unstarted() {
    return this == PENDING || this == QUEUED || this == GRANTED;
  }
}
