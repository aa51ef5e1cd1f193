/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.workflow.spi.ExecutionRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of {@link WorkflowInspector#executions}: the executions, newest first, and where the
 * next page starts. A value; thread-safe.
 *
 * @param executions the rows as stored (input and output in the codec's encoding)
 * @param nextCursor pass to {@link ExecutionQuery.Builder#cursor} for the next page; empty on the
 *     last page
 */
public record ExecutionPage(List<ExecutionRecord> executions, Optional<String> nextCursor) {
  /** Checks the components and copies the list. */
  public ExecutionPage {
    executions = List.copyOf(executions);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }
}
