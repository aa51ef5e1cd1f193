/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

/**
 * A step's body that needs nothing from its {@link StepContext}. It runs at most once per attempt,
 * on the worker thread, and may block.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface StepBody<T> {
  /**
   * Runs the step.
   *
   * @return the result, which the codec must be able to write
   * @throws Exception the step's failure, retried if its {@link StepOptions} allow
   */
  T run() throws Exception;
}
