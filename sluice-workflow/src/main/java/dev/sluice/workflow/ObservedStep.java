/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.Optional;

/**
 * A step a {@link WorkflowInstrumentation} observes. Immutable and thread-safe.
 *
 * @param workflow the workflow's name
 * @param executionId the execution's id
 * @param stepKey the step's key
 * @param replayed true when its recorded outcome is returned without running the body
 * @param attempt which run of the body this is (1, 2, … after retries); 0 for a replay
 * @param carried what {@link WorkflowInstrumentation#carry} returned when the execution was
 *     submitted, or null if it carried nothing
 */
public record ObservedStep(
    String workflow,
    String executionId,
    String stepKey,
    boolean replayed,
    int attempt,
    String carried) {

  /** The carried context, if the execution has one. */
  public Optional<String> carriedContext() {
    return Optional.ofNullable(carried);
  }
}
