/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes operation ids: random version-4 UUIDs, unique across processes without coordination. They
 * come from {@link ThreadLocalRandom}, not a secure source: an operation id is an idempotency key,
 * not a secret, and a secure source would make every execution wait on entropy.
 *
 * <p>Thread-safe.
 */
final class OperationIds {
  private OperationIds() {}

  static String next() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    long high = (r.nextLong() & ~0xF000L) | 0x4000L;
    long low = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }
}
