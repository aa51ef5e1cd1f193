/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

/**
 * How one attempt that held a lease ended, as a classifier saw it: the evidence the shared cooldown
 * and the circuit breaker work from ({@link PoolCommand.Report}).
 */
public enum ReportedOutcome {
  /** The provider served the attempt: evidence that it is healthy. */
  SUCCESS,
  /** The provider asked to slow down (HTTP 429, 503): starts or escalates the shared cooldown. */
  THROTTLE,
  /** The provider failed (HTTP 5xx, connection errors): evidence for the circuit breaker. */
  SERVICE_FAILURE,
  /** No evidence either way: the attempt was cancelled, or the result says nothing about health. */
  NEUTRAL
}
