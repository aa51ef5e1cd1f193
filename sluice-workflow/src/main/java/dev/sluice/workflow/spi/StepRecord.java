/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * One recorded step of an execution, at its position in the order the workflow function asked for
 * steps.
 *
 * @param executionId the execution
 * @param position 0 for the first step the function asked for, then 1, 2, …
 * @param key the step's key, unique within the execution
 * @param kind which kind of call recorded it
 * @param outcome what was recorded
 * @param recordedAt when, in store epoch milliseconds
 */
public record StepRecord(
    String executionId,
    int position,
    String key,
    StepKind kind,
    StepOutcome outcome,
    long recordedAt) {
  /** Checks the components. */
  public StepRecord {
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(outcome, "outcome");
    if (position < 0) {
      throw new IllegalArgumentException("position must not be negative, was " + position);
    }
  }
}
