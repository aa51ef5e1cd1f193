/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One execution as its store holds it, read in one unit of work: its row, its recorded steps
 * (results, failures, retries, sleeps, store snapshots), its durable timer and its wait on a
 * durable store. A value; thread-safe.
 *
 * @param execution the execution's row
 * @param steps its steps by position (from {@link WorkflowInspector#details}, without the carried
 *     context record)
 * @param timer its timer, if one is armed (a sleep, a retry delay or its deadline)
 * @param storeWait what it waits on, if it waits on a durable store's document
 */
public record ExecutionDetails(
    ExecutionRecord execution,
    List<StepRecord> steps,
    Optional<TimerRecord> timer,
    Optional<WaiterRecord> storeWait) {
  /** Checks the components and copies the list. */
  public ExecutionDetails {
    Objects.requireNonNull(execution, "execution");
    steps = List.copyOf(steps);
    Objects.requireNonNull(timer, "timer");
    Objects.requireNonNull(storeWait, "storeWait");
  }
}
