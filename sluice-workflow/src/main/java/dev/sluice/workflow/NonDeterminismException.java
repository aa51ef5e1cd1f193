/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * The workflow function did not behave the same way on replay: it used a step key twice in one
 * execution, asked for a different step than the one recorded at that point, or went on after a
 * {@link WorkflowSuspension}. The message names the step key. The execution fails with it; {@link
 * Execution#result} reports it as the cause of a {@link WorkflowFailedException}.
 *
 * <p>Immutable.
 */
public class NonDeterminismException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what differed, naming the step key
   */
  public NonDeterminismException(String message) {
    super(message);
  }
}
