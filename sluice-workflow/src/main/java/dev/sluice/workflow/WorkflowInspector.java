/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.Map;
import java.util.Optional;

/**
 * Reads a workflow store for people and tools that watch it (a console, metrics): executions by
 * status and id, one execution's steps, timer and wait, and counts by status. It never writes and
 * needs no workflow registered, so it reads executions of workflows this JVM does not know. Obtain
 * one from {@link WorkflowRuntime#inspector()}.
 *
 * <p>Thread-safe. Every read is one unit of work on the store and blocks on it; listeners run on
 * the store's threads and must not block.
 */
public interface WorkflowInspector {
  /**
   * Lists one page of executions, newest first (by creation time, then id descending).
   *
   * @param query which executions and from where
   * @return the page
   * @throws IllegalArgumentException if the query's cursor is not one this API returned
   */
  ExecutionPage executions(ExecutionQuery query);

  /**
   * Reads one execution with its steps, timer and wait. The steps are those the workflow recorded:
   * the context an instrumentation carried from the submit ({@link
   * dev.sluice.workflow.spi.StepKind#CONTEXT}, at position 0) is not among them.
   *
   * @param id the execution's exact id
   * @return the execution, or empty if the store has none with this id
   */
  Optional<ExecutionDetails> details(String id);

  /**
   * Counts the executions by status.
   *
   * @return a count for every status, zero included, in the statuses' order
   */
  Map<ExecutionStatus, Long> counts();

  /**
   * Calls {@code listener} after every change the store reports, by any runtime in any process
   * (spurious calls are allowed, missed ones are not): re-read on it rather than poll.
   *
   * @param listener a short, non-blocking action
   * @return closing it removes the listener
   */
  AutoCloseable onChange(Runnable listener);
}
