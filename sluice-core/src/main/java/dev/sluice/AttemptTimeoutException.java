/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;

/**
 * One attempt of a managed execution ran longer than its {@link ExecuteOptions#attemptTimeout()
 * attempt timeout}, measured from the moment its task started. The execution fails at once and no
 * attempt follows: the timed-out attempt may still be running and may yet take effect, so running
 * another beside it would not be a replay but a duplicate. The attempt is cancelled (its {@link
 * ExecutionContext#cancelled()} turns true) and keeps its lease until its task returns.
 */
public final class AttemptTimeoutException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final Duration attemptTimeout;
  private final int attempt;

  /**
   * Creates the exception.
   *
   * @param pool the pool of the execution
   * @param operationId the operation whose attempt timed out
   * @param attempt the attempt's number, 1 for the first
   * @param attemptTimeout the timeout that passed
   */
  public AttemptTimeoutException(
      String pool, String operationId, int attempt, Duration attemptTimeout) {
    super(
        "attempt "
            + attempt
            + " of operation "
            + operationId
            + " on pool '"
            + pool
            + "' ran longer than its attempt timeout of "
            + attemptTimeout);
    this.attemptTimeout = Objects.requireNonNull(attemptTimeout, "attemptTimeout");
    this.attempt = attempt;
  }

  /** Returns the timeout that passed. */
  public Duration attemptTimeout() {
    return attemptTimeout;
  }

  /** Returns the number of the attempt that timed out, 1 for the first. */
  public int attempt() {
    return attempt;
  }
}
