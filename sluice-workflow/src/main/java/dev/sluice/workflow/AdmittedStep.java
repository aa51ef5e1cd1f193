/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.Admission;
import dev.sluice.ExecutionContext;
import java.util.Objects;
import java.util.Optional;

/**
 * The context of a step body that runs inside a limiter pool: the step's own, plus the admission
 * its body runs under and, for a managed step, the execution's attempt ({@code null} otherwise).
 * Immutable.
 */
record AdmittedStep(StepContext step, Admission granted, ExecutionContext managed)
    implements StepContext {
  AdmittedStep {
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(granted, "granted");
  }

  @Override
  public String executionId() {
    return step.executionId();
  }

  @Override
  public String stepKey() {
    return step.stepKey();
  }

  @Override
  public int attempt() {
    return step.attempt();
  }

  @Override
  public String idempotencyKey() {
    return step.idempotencyKey();
  }

  @Override
  public Optional<Admission> admission() {
    return Optional.of(granted);
  }

  @Override
  public Optional<ExecutionContext> execution() {
    return Optional.ofNullable(managed);
  }
}
