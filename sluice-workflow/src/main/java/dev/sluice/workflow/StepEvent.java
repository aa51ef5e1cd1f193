/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.time.Duration;
import java.util.Objects;

/**
 * One run of a step body in a runtime, as {@link WorkflowRuntime#onStep} reports it: which
 * execution, workflow and step, which attempt, how it ended and how long the body ran (monotonic
 * time, this JVM). Replays of recorded steps run no body and are not reported. A value;
 * thread-safe.
 *
 * @param executionId the execution
 * @param workflow the workflow's name
 * @param stepKey the step's key
 * @param attempt 1 for the first attempt, then 2, 3, …
 * @param outcome how the body ended
 * @param duration how long the body ran
 */
public record StepEvent(
    String executionId,
    String workflow,
    String stepKey,
    int attempt,
    Outcome outcome,
    Duration duration) {
  /** Checks the components. */
  public StepEvent {
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(workflow, "workflow");
    Objects.requireNonNull(stepKey, "stepKey");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
  }

  /** How a step body's run ended. */
  public enum Outcome {
    /** It returned a result. */
    SUCCEEDED,
    /** It threw, and its retry policy runs it again later. */
    RETRYING,
    /** It threw, and the failure is the step's final outcome. */
    FAILED;

    /** Returns the lower-case name, for tags and logs. */
    public String code() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
