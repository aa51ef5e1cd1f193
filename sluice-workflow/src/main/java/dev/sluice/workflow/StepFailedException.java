/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.SluiceException;
import java.util.Objects;

/**
 * A step's body failed for the last time (no retry was allowed or none was left), and this is its
 * recorded failure, thrown into the workflow function at the step. Replays throw an equal exception
 * at the same step without running the body again, so workflow code can catch it and compensate
 * deterministically.
 *
 * <p>The original exception class is not loaded or instantiated (class names read from a store are
 * never trusted); instead {@link #originalClassName()} names it, the message repeats the original
 * message, and the stack trace is the original one as recorded.
 *
 * <p>Immutable once thrown.
 */
public class StepFailedException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final String stepKey;
  private final String originalClassName;
  private final String originalMessage;

  /**
   * Creates the exception.
   *
   * @param stepKey the step whose body failed
   * @param originalClassName the class name of the body's exception
   * @param originalMessage the body's exception's message, or null
   * @param stack the body's exception's stack trace as recorded
   */
  public StepFailedException(
      String stepKey, String originalClassName, String originalMessage, StackTraceElement[] stack) {
    super(originalMessage == null ? originalClassName : originalClassName + ": " + originalMessage);
    this.stepKey = Objects.requireNonNull(stepKey, "stepKey");
    this.originalClassName = Objects.requireNonNull(originalClassName, "originalClassName");
    this.originalMessage = originalMessage;
    setStackTrace(stack.clone());
  }

  /** Returns the key of the step that failed (empty for a failure of the workflow function). */
  public String stepKey() {
    return stepKey;
  }

  /** Returns the class name of the exception the body threw. */
  public String originalClassName() {
    return originalClassName;
  }

  /** Returns the message of the exception the body threw, or null if it had none. */
  public String originalMessage() {
    return originalMessage;
  }
}
