/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.util.Objects;

/**
 * How a response body ended, as {@link BodyWatch} saw it. Only a body read to its end confirms what
 * a good status said; a body its reader closed early is no evidence about the service, and one that
 * failed (or was aborted) carries its failure.
 *
 * <p>Immutable.
 */
sealed interface BodyEnd {
  /** The body was read to its end. */
  BodyEnd READ = new Read();

  /** The reader closed the body before its end. */
  BodyEnd ABANDONED = new Abandoned();

  /** Read to the end. */
  record Read() implements BodyEnd {}

  /** Closed by its reader before the end. */
  record Abandoned() implements BodyEnd {}

  /**
   * Failed on the connection, or aborted from outside (a timeout, a cancellation, a response thrown
   * away for a retry).
   *
   * @param failure what the reader was given
   */
  record Failed(Throwable failure) implements BodyEnd {
    /** Checks the component. */
    public Failed {
      Objects.requireNonNull(failure, "failure");
    }
  }
}
