/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * A durable timer: the execution is queued again when the store's time reaches {@code dueAt}. An
 * execution has at most one.
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
