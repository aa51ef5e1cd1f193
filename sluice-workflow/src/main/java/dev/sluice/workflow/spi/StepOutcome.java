/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Objects;

/**
 * What a step record holds: a result, a final failure, a failure that will be retried, a sleep's
 * wake time, or a durable store's document. Only {@link Retrying} is ever replaced (by the next
 * attempt's outcome).
 */
public sealed interface StepOutcome {
  /**
   * A result, as the codec's payload.
   *
   * @param payload the encoded result
   */
  record Value(String payload) implements StepOutcome {
    /** Checks the components. */
    public Value {
      Objects.requireNonNull(payload, "payload");
    }
  }

  /**
   * The body's last failure; replays throw it as {@code StepFailedException}.
   *
   * @param failure the recorded failure
   * @param attempts how many attempts were made
   */
  record Failed(FailureRecord failure, int attempts) implements StepOutcome {
    /** Checks the components. */
    public Failed {
      Objects.requireNonNull(failure, "failure");
    }
  }

  /**
   * A failed attempt with another to come at {@code retryAt}.
   *
   * @param failedAttempts how many attempts failed so far
   * @param retryAt when the next attempt may run, in store epoch milliseconds
   * @param lastFailure the latest failure
   */
  record Retrying(int failedAttempts, long retryAt, FailureRecord lastFailure)
      implements StepOutcome {
    /** Checks the components. */
    public Retrying {
      Objects.requireNonNull(lastFailure, "lastFailure");
      if (failedAttempts < 1) {
        throw new IllegalArgumentException(
            "failedAttempts must be at least 1, was " + failedAttempts);
      }
    }
  }

  /**
   * A durable sleep until {@code wakeAt}.
   *
   * @param wakeAt in store epoch milliseconds
   */
  record Sleep(long wakeAt) implements StepOutcome {}

  /**
   * A durable store's document as a store step saw or left it; the document is named so that a
   * replay asking for another one is caught.
   *
   * @param store the durable store's name
   * @param documentId the document's id
   * @param version the document's version, 0 if it was never written
   * @param state the state, as the codec's payload
   */
  record Snapshot(String store, String documentId, long version, String state)
      implements StepOutcome {
    /** Checks the components. */
    public Snapshot {
      Objects.requireNonNull(store, "store");
      Objects.requireNonNull(documentId, "documentId");
      Objects.requireNonNull(state, "state");
      if (version < 0) {
        throw new IllegalArgumentException("version must not be negative, was " + version);
      }
    }
  }
}
