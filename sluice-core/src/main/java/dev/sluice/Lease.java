/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * Capacity held by the calling thread, from {@link Limiter#acquire(long)} or {@link
 * Limiter#tryAcquire(long)}. Closing it releases the capacity exactly once; later calls do nothing.
 *
 * <pre>{@code
 * try (Lease lease = limiter.acquire(2)) {
 *   callService(lease.admission().fencingToken());
 * }
 * }</pre>
 *
 * <p>Thread-safe: any thread may close a lease. {@link #close()} returns once the store has applied
 * the release, so capacity freed by it is visible to the next request.
 */
public interface Lease extends AutoCloseable {
  /** Returns the granted lease. */
  Admission admission();

  /** Releases the capacity; only the first call has an effect. */
  @Override
  void close();
}
