/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * A durable timer: when the store's time reaches {@code dueAt}, a waiting execution is queued
 * again, and an execution whose deadline ({@link ExecutionRecord#deadlineAt()}) has passed is ended
 * as timed out. An execution has at most one; one with a deadline keeps a timer due no later than
 * its deadline until it finishes.
 *
 * @param executionId the execution it wakes
 * @param dueAt when, in store epoch milliseconds
 */
public record TimerRecord(String executionId, long dueAt) {
  /** Checks the components. */
  public TimerRecord {
    Objects.requireNonNull(executionId, "executionId");
  }
}
