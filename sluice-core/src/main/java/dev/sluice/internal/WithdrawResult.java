/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/** What a call of {@link Ticket#withdrawState} did, and so what its caller still owes. */
enum WithdrawResult {
  /** This call did not withdraw the request: it had started, ended, or was withdrawn already. */
  NOT_WITHDRAWN,
  /** Withdrawn before its acquire was sent; there is nothing to clean up in the store. */
  END_NOW,
  /** Withdrawn; end it once the store withdrawal has been applied. */
  END_AFTER_CLEANUP
}
