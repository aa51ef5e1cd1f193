/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.SluiceException;

/**
 * Carries a failure of the application's own code (its body handler or body factory) through the
 * HTTP client, so that it is judged neutral and reaches the caller unwrapped. Never escapes this
 * package.
 */
final class ApplicationFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ApplicationFailure(Throwable cause) {
    super(cause.toString(), cause, false, false);
  }

  /**
   * The application's failure in {@code t}'s cause chain, else {@code t} itself. The walk stops at
   * an exception of Sluice's own: a timeout's cause tells what the attempts met, and the timeout is
   * still the call's answer.
   */
  static Throwable unwrap(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SluiceException) {
        return t;
      }
      if (c instanceof ApplicationFailure) {
        return c.getCause();
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return t;
  }
}
