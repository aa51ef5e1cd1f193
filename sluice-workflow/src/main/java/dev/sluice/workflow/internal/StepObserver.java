/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.Observation;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import dev.sluice.spi.support.Observed;
import dev.sluice.workflow.ObservedStep;
import dev.sluice.workflow.WorkflowInstrumentation;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import java.util.List;

/**
 * The steps of one run of an execution as a {@link WorkflowInstrumentation} sees them, with the
 * context its submit carried. A hook that throws is logged and ignored: the run goes on.
 *
 * <p>Confined to the worker thread that runs the workflow function.
 */
final class StepObserver {
  private static final Log LOG = Logs.of(StepObserver.class);

  /** The key of the step record that holds the carried context. */
  static final String CONTEXT_KEY = Names.RESERVED_PREFIX + "context";

  private final WorkflowInstrumentation hook;
  private final String workflow;
  private final String executionId;
  private final String carried;

  StepObserver(
      WorkflowInstrumentation hook, String workflow, String executionId, List<StepRecord> steps) {
    this.hook = hook;
    this.workflow = workflow;
    this.executionId = executionId;
    this.carried = carried(steps);
  }

  /** Whether the first recorded step holds a carried context, which replays skip. */
  static boolean carriesContext(List<StepRecord> steps) {
    return !steps.isEmpty() && steps.get(0).kind() == StepKind.CONTEXT;
  }

  /** The step record that carries {@code context} for a new execution. */
  static StepRecord contextStep(String executionId, String context, long now) {
    return new StepRecord(
        executionId, 0, CONTEXT_KEY, StepKind.CONTEXT, new StepOutcome.Value(context), now);
  }

  /**
   * Checks what a hook's {@link WorkflowInstrumentation#carry} returned.
   *
   * @throws IllegalStateException naming the length and the limit if it is too long
   */
  static String checkCarried(String workflow, String context) {
    if (context != null && context.length() > WorkflowInstrumentation.MAX_CARRIED_LENGTH) {
      throw new IllegalStateException(
          "the workflow instrumentation carried "
              + context.length()
              + " characters for an execution of workflow '"
              + workflow
              + "'; at most "
              + WorkflowInstrumentation.MAX_CARRIED_LENGTH
              + " are allowed");
    }
    return context;
  }

  private static String carried(List<StepRecord> steps) {
    if (carriesContext(steps) && steps.get(0).outcome() instanceof StepOutcome.Value v) {
      return v.payload();
    }
    return null;
  }

  /** Begins observing a step whose body runs now. */
  Observation run(String key, int attempt) {
    return begin(new ObservedStep(workflow, executionId, key, false, attempt, carried));
  }

  /** Observes a step whose recorded outcome is replayed: it ends at once. */
  void replayed(String key, Throwable failure) {
    Observation o = begin(new ObservedStep(workflow, executionId, key, true, 0, carried));
    Observed.end(o, failure);
  }

  private Observation begin(ObservedStep step) {
    try {
      Observation o = hook.step(step);
      return o == null ? Observation.NONE : o;
    } catch (RuntimeException e) {
      LOG.warn("execution '{}': the workflow instrumentation threw; ignored", executionId, e);
      return Observation.NONE;
    }
  }
}
