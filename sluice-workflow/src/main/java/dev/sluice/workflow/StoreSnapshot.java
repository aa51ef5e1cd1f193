/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import java.util.Objects;

/**
 * A durable store's document at one version. Immutable as a record; the state is a fresh copy owned
 * by the caller, as thread-safe as its type.
 *
 * @param state the state, decoded afresh for each snapshot (changing it changes nothing stored)
 * @param version 0 for a document never written, then 1, 2, … after each change
 * @param <T> the state's type
 */
public record StoreSnapshot<T>(T state, long version) {
  /** Checks the components. */
  public StoreSnapshot {
    Objects.requireNonNull(state, "state");
    if (version < 0) {
      throw new IllegalArgumentException("version must not be negative, was " + version);
    }
  }
}
