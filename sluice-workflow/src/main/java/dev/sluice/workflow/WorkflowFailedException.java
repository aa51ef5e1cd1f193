/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * The execution finished with a failure: the workflow function threw, a step failed and the
 * function let the {@link StepFailedException} escape, the input could not be read, or replay found
 * non-determinism. The cause is a {@link StepFailedException} that replays the recorded failure's
 * class name, message and stack, or the {@link NonDeterminismException} itself.
 *
 * <p>Immutable.
 */
public class WorkflowFailedException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which execution and why
   * @param cause the recorded failure
   */
  public WorkflowFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
