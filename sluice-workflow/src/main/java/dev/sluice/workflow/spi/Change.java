/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import dev.sluice.workflow.ExecutionStatus;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a committed unit of work changed, as far as the sessions it wakes care: a runtime wakes an
 * idle worker only for {@link #WORK}, and its result waiters only for an {@link #OUTCOME}. Most
 * commits are a claimant's own progress (a step recorded, a claim taken), and waking every idle
 * worker of every process for each of them makes each one claim and find nothing.
 *
 * <p>A store passes at least the changes a commit made and may pass more: {@link #ALL} when it
 * cannot tell (an owner that may have died, a notification channel that carries no payload).
 */
public enum Change {
  /**
   * An execution may be claimable now or from a new moment on: one submitted, released, put back in
   * the queue, set waiting with a timer, or held locked by a unit while another worker's claim
   * passed over it.
   */
  WORK,
  /** An execution reached a terminal status: its result waiters read it. */
  OUTCOME,
  /** Anything else: a claimant's steps and claims, documents, receipts, deletes. */
  PROGRESS;

  /** Every kind, for a change the store cannot tell apart. Immutable. */
  public static final Set<Change> ALL = Collections.unmodifiableSet(EnumSet.allOf(Change.class));

  /**
   * What writing (or holding locked) {@code execution} changes in a unit of {@code writer}: a
   * terminal status is an outcome, a claim of the writer's own is its progress, anything else may
   * give another worker work.
   *
   * @param execution the row as written, or as read and locked
   * @param writer the owner whose unit it is
   * @return the change
   */
  public static Change ofExecution(ExecutionRecord execution, String writer) {
    if (execution.status().isTerminal()) {
      return OUTCOME;
    }
    if (execution.status() == ExecutionStatus.RUNNING && writer.equals(execution.claimOwner())) {
      return PROGRESS;
    }
    return WORK;
  }
}
