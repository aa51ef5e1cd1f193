/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

/**
 * The code of a workflow: deterministic apart from its {@link WorkflowContext} calls, which do the
 * durable work. It may run many times for one execution (every replay runs it from the top), on any
 * worker.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
@FunctionalInterface
public interface WorkflowFunction<I, O> {
  /**
   * Runs the workflow.
   *
   * @param ctx the durable operations, confined to the calling thread
   * @param input the execution's input, as submitted
   * @return the output, which the codec must be able to write
   * @throws Exception the workflow's failure; the execution fails with it
   */
  O run(WorkflowContext ctx, I input) throws Exception;
}
