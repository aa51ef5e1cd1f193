/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

/**
 * A step's body that reads its {@link StepContext}, usually for {@link
 * StepContext#idempotencyKey()}. It runs at most once per attempt, on the worker thread, and may
 * block.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface StepFunction<T> {
  /**
   * Runs the step.
   *
   * @param step the execution, step key and attempt
   * @return the result, which the codec must be able to write
   * @throws Exception the step's failure, retried if its {@link StepOptions} allow
   */
  T run(StepContext step) throws Exception;
}
