/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.ExecuteOptions;
import dev.sluice.TimeSource;

/**
 * What an execution tells its attempts for a {@link RetryForecast}: its options, its clock, its
 * deadline and whether its limiter is closing. Implemented by both execution paths, so an attempt
 * needs no object of its own for it.
 */
interface RetryHorizon {
  /** The execution's options. */
  ExecuteOptions options();

  /** The clock of its deadline. */
  TimeSource clock();

  /** Its deadline on that clock, or {@link Long#MAX_VALUE} for none. */
  long deadlineNanos();

  /** Whether its limiter is closing, which stops retries. */
  boolean limiterClosing();
}
