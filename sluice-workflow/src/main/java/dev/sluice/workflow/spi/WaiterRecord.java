/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.List;
import java.util.Objects;

/**
 * A waiting execution's interest in a durable store: a change of the document that touches one of
 * {@code paths} and makes it newer than {@code sinceVersion} queues the execution again. An
 * execution has at most one: written when its condition was found false, gone once a change took it
 * or the execution ended.
 *
 * @param executionId the waiting execution
 * @param stepKey the {@code awaitCondition} step it waits in
 * @param store the durable store's name
 * @param documentId the document's id
 * @param paths the watched paths, as JSON Pointers ({@code ""} is the whole document)
 * @param sinceVersion the version its condition was last found false at
 */
public record WaiterRecord(
    String executionId,
    String stepKey,
    String store,
    String documentId,
    List<String> paths,
    long sinceVersion) {
  /** Checks the components and copies the paths. */
  public WaiterRecord {
    Objects.requireNonNull(executionId, "executionId");
    Objects.requireNonNull(stepKey, "stepKey");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(documentId, "documentId");
    paths = List.copyOf(paths);
  }
}
