/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

/**
 * Thrown by {@link WorkflowContext} to stop the workflow function when the execution must wait: a
 * durable sleep that has not elapsed, or a step whose next retry is not due. The runtime catches it
 * where it called the function, records the wait and frees the worker; a durable timer queues the
 * execution again and it replays from the top.
 *
 * <p>It is an {@link Error} so that {@code catch (Exception e)} in workflow code cannot swallow it.
 * Workflow code must never catch it: if the function returns or throws anything else after a
 * suspension, the execution fails with {@link NonDeterminismException} naming the step.
 *
 * <p>Carries no stack trace (it is control flow, not a fault). Immutable.
 */
public final class WorkflowSuspension extends Error {
  private static final long serialVersionUID = 1L;

  private final String stepKey;

  /**
   * Creates a suspension at a step.
   *
   * @param stepKey the key of the step that suspends the execution
   */
  public WorkflowSuspension(String stepKey) {
    super("execution suspended at step '" + stepKey + "'", null, false, false);
    this.stepKey = stepKey;
  }

  /** Returns the key of the step that suspended the execution. */
  public String stepKey() {
    return stepKey;
  }
}
