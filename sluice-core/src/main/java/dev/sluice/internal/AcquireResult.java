/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.spi.LeaseRecord;

/** What an acquire transition decided. */
sealed interface AcquireResult {
  /** Admitted at once. */
  record Granted(LeaseRecord lease) implements AcquireResult {}

  /** Joined the queue as entry {@code entryId}. */
  record Queued(long entryId) implements AcquireResult {}

  /** Could not be admitted at once and was not allowed to wait; nothing was spent. */
  record Refused() implements AcquireResult {}

  /** Held weight plus this request would overflow the accounting; nothing was changed. */
  record Overflow(long activeWeight, long weight) implements AcquireResult {}
}
