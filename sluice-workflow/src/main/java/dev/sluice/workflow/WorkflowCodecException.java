/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * A value could not be written as, or read from, a stored payload: an input, output or step result
 * whose type the codec cannot handle, or a stored payload that does not fit the type asked for (the
 * message names the field and the value where the codec knows them).
 *
 * <p>Immutable.
 */
public class WorkflowCodecException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what could not be converted, naming the type and field
   * @param cause the codec's own failure
   */
  public WorkflowCodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
