/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;

/**
 * {@link Execution#result} waited as long as it was told to, and the execution had not finished; or
 * the waiting thread was interrupted (its interrupt status is set again). The execution goes on.
 *
 * <p>Immutable.
 */
public class ResultTimeoutException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which execution and how long
   */
  public ResultTimeoutException(String message) {
    super(message);
  }
}
