/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * The stored state of one durable store: a typed document identified by the store's name and an id,
 * with a version that every change raises by one. A document that was never written has no row; it
 * reads as its definition's initial state at version 0.
 *
 * @param store the durable store's name
 * @param id the document's id within the store
 * @param version 1 after the first change, then 2, 3, …
 * @param state the state, as the codec's payload
 * @param updatedAt when it last changed, in store epoch milliseconds
 */
public record DocumentRecord(String store, String id, long version, String state, long updatedAt) {
  /** Checks the components. */
  public DocumentRecord {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    if (version < 1) {
      throw new IllegalArgumentException("version must be at least 1, was " + version);
    }
  }
}
