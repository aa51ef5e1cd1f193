/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;
import java.time.Duration;
import java.time.Instant;

/**
 * Thrown by {@link Execution#result(Duration)} when the execution ended {@link
 * ExecutionStatus#TIMED_OUT}: its execution timeout, counted from its creation on the store's
 * clock, passed before it finished. The message names the execution, its workflow, the limit and
 * the deadline.
 *
 * <p>Not to be confused with {@link ResultTimeoutException}, which only means the caller stopped
 * waiting while the execution goes on.
 */
public class WorkflowTimeoutException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final String executionId;
  private final Duration executionTimeout;
  private final Instant deadline;

  /**
   * Creates the exception.
   *
   * @param executionId the execution that timed out
   * @param workflow its workflow's name
   * @param executionTimeout its limit
   * @param deadline when the limit passed, on the store's clock
   */
  public WorkflowTimeoutException(
      String executionId, String workflow, Duration executionTimeout, Instant deadline) {
    super(
        "execution '"
            + executionId
            + "' of workflow '"
            + workflow
            + "' timed out: its execution timeout of "
            + executionTimeout
            + " passed at "
            + deadline
            + " before it finished");
    this.executionId = executionId;
    this.executionTimeout = executionTimeout;
    this.deadline = deadline;
  }

  /** Returns the id of the execution that timed out. */
  public String executionId() {
    return executionId;
  }

  /** Returns its execution timeout. */
  public Duration executionTimeout() {
    return executionTimeout;
  }

  /** Returns when the timeout passed, on the store's clock. */
  public Instant deadline() {
    return deadline;
  }
}
