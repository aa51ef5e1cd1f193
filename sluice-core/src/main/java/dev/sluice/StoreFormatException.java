/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * A store holds data in a format this library does not read: another format id, a newer schema, or
 * a file that is not a Sluice store at all. Nothing in the store was changed.
 */
public final class StoreFormatException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was found, naming the store's location
   */
  public StoreFormatException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message what was found, naming the store's location
   * @param cause the underlying failure
   */
  public StoreFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
