/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

/** What {@link PoolCommand.Acquire} decided. */
public sealed interface AcquireAnswer {
  /**
   * Admitted at once.
   *
   * @param lease the new lease
   */
  record Granted(LeaseRecord lease) implements AcquireAnswer {}

  /**
   * Joined the queue.
   *
   * @param entryId the queue entry, which becomes the lease id when it is granted
   * @param queueDeadline store time after which it is dropped, or {@link PoolState#NEVER}
   */
  record Queued(long entryId, long queueDeadline) implements AcquireAnswer {}

  /** Could not be admitted at once and was not allowed to wait; nothing was spent. */
  record Refused() implements AcquireAnswer {}

  /**
   * Held weight plus this request would overflow the accounting; nothing was changed.
   *
   * @param activeWeight the weight held
   * @param weight the weight asked for
   */
  record Overflow(long activeWeight, long weight) implements AcquireAnswer {}

  /**
   * The pool drains: new work is refused until it resumes; nothing was changed.
   *
   * @param generation the drain's generation
   */
  record Draining(long generation) implements AcquireAnswer {}

  /**
   * The circuit is open (or its probe runs) and the request asked to fail fast; nothing was
   * changed.
   *
   * @param notBefore store time before which no admission can happen: the latest of the cooldown,
   *     the end of the open pause and the running probe's timeout
   */
  record CircuitOpen(long notBefore) implements AcquireAnswer {}
}
