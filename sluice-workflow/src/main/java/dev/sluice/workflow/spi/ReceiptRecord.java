/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * Proof that an update with an idempotency key was applied to a durable store, written in the same
 * unit of work as the change: an update that finds it returns the recorded outcome instead of
 * applying the change again.
 *
 * @param store the durable store's name
 * @param documentId the document's id
 * @param key the caller's idempotency key
 * @param version the document's version after the update
 * @param state the document's state after the update, as the codec's payload
 * @param recordedAt when, in store epoch milliseconds
 */
public record ReceiptRecord(
    String store, String documentId, String key, long version, String state, long recordedAt) {
  /** Checks the components. */
  public ReceiptRecord {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(documentId, "documentId");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(state, "state");
  }
}
