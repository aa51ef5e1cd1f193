/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;

/**
 * A managed execution did not finish within its overall {@link ExecuteOptions#deadline() deadline},
 * measured from the call. No attempt follows; an attempt that is still running is cancelled (its
 * {@link ExecutionContext#cancelled()} turns true) and keeps its lease until its task returns. Its
 * {@linkplain #getCause() cause} is the failure of the last attempt that ended with one, if any:
 * what the retries were trying to get past.
 */
public final class ExecutionTimeoutException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final Duration deadline;

  /**
   * Creates the exception.
   *
   * @param pool the pool of the execution
   * @param operationId the operation that timed out
   * @param deadline the deadline that passed
   * @param attempts how many attempts had started
   */
  public ExecutionTimeoutException(
      String pool, String operationId, Duration deadline, int attempts) {
    this(pool, operationId, deadline, attempts, null);
  }

  /**
   * Creates the exception with the last failure before the deadline.
   *
   * @param pool the pool of the execution
   * @param operationId the operation that timed out
   * @param deadline the deadline that passed
   * @param attempts how many attempts had started
   * @param lastFailure the failure of the last attempt that failed, or {@code null}
   */
  public ExecutionTimeoutException(
      String pool, String operationId, Duration deadline, int attempts, Throwable lastFailure) {
    super(
        "operation "
            + operationId
            + " on pool '"
            + pool
            + "' did not finish within its deadline of "
            + deadline
            + " ("
            + attempts
            + (attempts == 1 ? " attempt" : " attempts")
            + " started"
            + (lastFailure == null ? ")" : "; the last failure: " + lastFailure + ")"),
        lastFailure);
    this.deadline = Objects.requireNonNull(deadline, "deadline");
  }

  /** Returns the deadline that passed. */
  public Duration deadline() {
    return deadline;
  }
}
