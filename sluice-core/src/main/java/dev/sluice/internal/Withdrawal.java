/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/** What withdrawing a request found in the store. */
enum Withdrawal {
  /** It was still queued and left the queue. */
  WAS_QUEUED,
  /** It had been granted; the lease was released. */
  WAS_GRANTED,
  /** Neither: it was dropped, reclaimed or already withdrawn. */
  GONE
}
