/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The root of every run-time condition Sluice reports: a request that timed out in the queue, a
 * lease that expired before its callback could start, a closed limiter, a store that failed or
 * refused its contents.
 *
 * <p>Argument errors are not {@code SluiceException}s: they throw {@link IllegalArgumentException}
 * or {@link NullPointerException} at once, before anything is queued or written. Exceptions thrown
 * by user callbacks are never wrapped; they reach the caller unchanged.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public class SluiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what happened, naming the pool or value involved
   */
  public SluiceException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and a cause.
   *
   * @param message what happened, naming the pool or value involved
   * @param cause the underlying failure
   */
  public SluiceException(String message, Throwable cause) {
    super(message, cause);
  }
}
