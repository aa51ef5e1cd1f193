/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * {@link WorkflowRuntime#submit} was given an execution id that already names an execution of
 * another workflow, or of the same workflow with another input. Nothing was written.
 *
 * <p>Immutable.
 */
public class ExecutionConflictException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what differs, naming the execution id
   */
  public ExecutionConflictException(String message) {
    super(message);
  }
}
