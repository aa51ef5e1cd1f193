/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.Observation;

/**
 * Observes a workflow runtime's steps and carries the submitting caller's context (a trace) with
 * each execution, durably, to whichever worker runs its steps later, in this process or another
 * one, after a restart or a take-over. A tracing module implements it ({@code
 * sluice-opentelemetry}); a runtime uses one given to {@link
 * WorkflowRuntime.Builder#instrumentation(WorkflowInstrumentation)}.
 *
 * <p>{@link #carry} runs on the submitting thread; its text is recorded with a new execution in the
 * same unit of work that creates it (as the execution's first step record, of kind {@link
 * dev.sluice.workflow.spi.StepKind#CONTEXT}, which replays skip), so it is as durable as the
 * execution and deleted with it. {@link #step} runs on the worker as the workflow function reaches
 * a {@code step}, and is given that text back.
 *
 * <p>Implementations must be thread-safe and must not block. An exception thrown by {@link #carry}
 * reaches the caller of {@code submit} and nothing is written; one thrown by {@link #step} or by
 * its observation is logged and ignored.
 */
public interface WorkflowInstrumentation {
  /** The longest text {@link #carry} may return. */
  int MAX_CARRIED_LENGTH = 4096;

  /**
   * A submit may create an execution: returns the context to carry with it.
   *
   * @param workflow the workflow's name
   * @param executionId the execution's id
   * @return the context as text (for example a W3C {@code traceparent}), at most {@link
   *     #MAX_CARRIED_LENGTH} characters, or null to carry nothing
   */
  String carry(String workflow, String executionId);

  /**
   * The workflow function reached a step: its body is about to run, or its recorded result is about
   * to be replayed. The observation is entered around the body, on the worker's thread, and ended
   * when the body returned (or at once for a replay).
   *
   * @param step which step, with the text {@link #carry} returned when its execution was submitted
   * @return the step's observation, never null
   */
  Observation step(ObservedStep step);
}
