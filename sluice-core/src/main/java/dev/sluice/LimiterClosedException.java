/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The limiter was closed: new work is refused at once, and {@link Limiter#close()} rejects work
 * that was still queued with this exception.
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
}
