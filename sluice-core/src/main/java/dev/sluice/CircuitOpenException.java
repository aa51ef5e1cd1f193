/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Instant;
import java.util.Objects;

/**
 * A request that asked to fail fast ({@link ScheduleOptions#circuitFailFast()}) found the pool's
 * circuit breaker open, or its one probe running. Nothing was queued or spent.
 *
 * <p>{@link #notBefore()} says when to try again: the latest of the cooldown's end, the open
 * pause's end and the running probe's timeout, in the store's time.
 */
public final class CircuitOpenException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final Instant notBefore;

  /**
   * Creates the exception.
   *
   * @param pool the pool
   * @param notBefore store time before which no admission can happen
   */
  public CircuitOpenException(String pool, Instant notBefore) {
    super(
        "the circuit of pool '"
            + pool
            + "' is open; no admission before "
            + notBefore
            + " (the request asked to fail fast, so nothing was queued or spent)");
    this.notBefore = Objects.requireNonNull(notBefore, "notBefore");
  }

  /** Returns the store time before which no admission can happen; retry after it. */
  public Instant notBefore() {
    return notBefore;
  }

  /** Returns {@link #notBefore()}: when to retry. */
  public Instant retryAfter() {
    return notBefore;
  }
}
