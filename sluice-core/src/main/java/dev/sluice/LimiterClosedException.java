/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The limiter was closed: new work is refused at once, and {@link Limiter#close()} rejects work
 * that was still queued with this exception. A callback whose executor refused it (shut down or
 * saturated) also fails with this exception, the executor's refusal as its cause.
 */
public final class LimiterClosedException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was refused and why
   */
  public LimiterClosedException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message what was refused and why
   * @param cause the refusal that closed the way, such as the executor's
   */
  public LimiterClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
