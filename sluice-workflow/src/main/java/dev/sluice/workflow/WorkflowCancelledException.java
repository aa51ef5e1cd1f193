/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * The execution was cancelled before it finished, so it has no result.
 *
 * <p>Immutable.
 */
public class WorkflowCancelledException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which execution
   */
  public WorkflowCancelledException(String message) {
    super(message);
  }
}
