/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * The store behind a limiter failed. After a failure the limiter admits nothing new and rejects its
 * pending requests with this exception, while release, inspection and close still try the store so
 * that held capacity can be returned. Fixing the cause does not resume the limiter: close it and
 * open a new one.
 */
public final class BackendFailureException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the pool
   * @param cause the underlying failure, or {@code null}
   */
  public BackendFailureException(String message, Throwable cause) {
    super(message, cause);
  }
}
