/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * A request or reservoir adjustment would push a pool's weight or token accounting beyond {@code
 * Long.MAX_VALUE}. Only that request is refused; the pool, its balance and its leases are unchanged
 * and stay usable.
 */
public final class AccountingOverflowException extends SluiceException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message which quantity would overflow, with its values
   */
  public AccountingOverflowException(String message) {
    super(message);
  }
}
