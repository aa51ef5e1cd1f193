/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import dev.sluice.workflow.ExecutionStatus;
import java.util.Comparator;
import java.util.Set;

/**
 * The one rule of {@link WorkflowTransaction#claimNext}, as code: which executions a claim may take
 * and in which order. A store that runs Java beside its rows (memory) applies it directly; a store
 * that claims in a query (JDBC) writes the same rule in SQL, and the workflow conformance kit holds
 * both to it.
 *
 * <p>Thread-safe (stateless).
 */
public final class ClaimRule {
  /** Queue order: oldest {@link ExecutionRecord#queuedAt()} first, then by id. */
  public static final Comparator<ExecutionRecord> ORDER =
      Comparator.comparingLong(ExecutionRecord::queuedAt).thenComparing(ExecutionRecord::id);

  private ClaimRule() {}

  /**
   * Whether a claim at {@code now} may take {@code e}: it is {@link ExecutionStatus#QUEUED}, its
   * workflow and version are among {@code runnable}, and its deadline has not passed ({@code
   * deadlineAt > now}; an overdue execution is ended by its timer, never run).
   *
   * @param e an execution
   * @param runnable the workflow versions the claiming runtime may run now
   * @param now the store's time
   * @return whether it is eligible
   */
  public static boolean eligible(ExecutionRecord e, Set<WorkflowVersion> runnable, long now) {
    return e.status() == ExecutionStatus.QUEUED
        && e.deadlineAt() > now
        && runnable.contains(new WorkflowVersion(e.workflow(), e.version()));
  }
}
