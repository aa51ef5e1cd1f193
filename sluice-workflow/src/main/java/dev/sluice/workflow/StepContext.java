/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.Admission;
import dev.sluice.ExecutionContext;
import java.util.Optional;

/**
 * What a step body knows about itself: which execution and step it belongs to, which attempt it is,
 * and a key that stays the same across every attempt and every worker, for making external effects
 * idempotent. A body interrupted before its result was committed (its worker died) runs again with
 * the same {@link #idempotencyKey()}.
 *
 * <p>Valid only during the body's call; safe to read from any thread during it.
 */
public interface StepContext {
  /** Returns the execution's id. */
  String executionId();

  /** Returns the step's key. */
  String stepKey();

  /** Returns the attempt, 1 for the first; attempts interrupted before a commit are not counted. */
  int attempt();

  /**
   * Returns the admission this body runs under when the step runs inside a limiter pool ({@link
   * WorkflowContext#step(String, dev.sluice.Limiter, dev.sluice.ScheduleOptions, Class,
   * StepFunction)} or {@link WorkflowContext#step(String, dev.sluice.Limiter,
   * dev.sluice.ExecuteOptions, Class, StepFunction)}), with its fencing token for the downstream
   * service to reject late writers; empty for other steps. A managed step sees the admission of its
   * current attempt.
   */
  default Optional<Admission> admission() {
    return Optional.empty();
  }

  /**
   * Returns the managed execution's attempt this body runs as, for a step run by {@link
   * WorkflowContext#step(String, dev.sluice.Limiter, dev.sluice.ExecuteOptions, Class,
   * StepFunction)}: its {@linkplain ExecutionContext#attempt() attempt} within the execution's
   * retries (this step's {@link #attempt()} counts the step's own runs), its {@linkplain
   * ExecutionContext#operationId() operation id}, and whether a timeout or deadline {@linkplain
   * ExecutionContext#cancelled() cancelled} it, which a long body should check so its lease ends
   * soon after. Empty for other steps.
   */
  default Optional<ExecutionContext> execution() {
    return Optional.empty();
  }

  /** Returns {@code executionId + "/" + stepKey}: stable across attempts, workers and restarts. */
  default String idempotencyKey() {
    return executionId() + "/" + stepKey();
  }
}
