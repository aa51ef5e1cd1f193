/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * The answer to {@code acquire}: a permit at once, a place in the queue, an offer to claim, or a
 * conflict with the agent's earlier request under the same operation key.
 */
public sealed interface AcquireOutcome {
  /** The request as it now stands. */
  Ticket ticket();

  /**
   * A permit, granted at once because the queue was empty and the request fit.
   *
   * @param ticket the request, {@link TicketState#HELD}
   * @param permitToken the permit's token, for {@code start}, {@code mark-started} and {@code
   *     release}
   */
  record Granted(Ticket ticket, String permitToken) implements AcquireOutcome {}

  /**
   * A place in the queue.
   *
   * @param ticket the request, {@link TicketState#QUEUED}
   */
  record Queued(Ticket ticket) implements AcquireOutcome {}

  /**
   * Capacity reserved for this request until the offer expires.
   *
   * @param ticket the request, {@link TicketState#OFFERED}
   * @param offerToken the token to claim or decline it with
   */
  record Offered(Ticket ticket, String offerToken) implements AcquireOutcome {}

  /**
   * The agent's live request under this operation key asks for something else.
   *
   * @param ticket the existing request, unchanged
   * @param detail what differs
   */
  record Conflict(Ticket ticket, String detail) implements AcquireOutcome {}

  /**
   * The agent's request under this operation key is paused (its offer lapsed or was declined);
   * {@code rejoin} puts it back at the tail.
   *
   * @param ticket the request, {@link TicketState#PAUSED}
   */
  record Paused(Ticket ticket) implements AcquireOutcome {}
}
