/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.spi.PoolOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The future of a command that a store applies later, on its own thread, which its caller may take
 * back until then: {@link #cancel} succeeds only while the store has not {@linkplain #claim()
 * claimed} the command, and a store never applies a command it could not claim. So a caller whose
 * patience ran out while the store waited for its lock (held, say, by a stopped process) knows for
 * certain whether its command will ever take effect: if {@code cancel} returned true it never will;
 * otherwise its outcome arrives as usual.
 *
 * <p>Thread-safe.
 *
 * @param <R> the command's answer type
 */
public final class PendingOutcome<R> extends CompletableFuture<PoolOutcome<R>> {
  private final AtomicBoolean claimed = new AtomicBoolean();

  /**
   * Claims the command for the store, which then applies it and completes this future; call once
   * the store holds its lock, just before it applies the command.
   *
   * @return whether the store may apply it: false if the caller cancelled it first
   */
  public boolean claim() {
    return claimed.compareAndSet(false, true);
  }

  /**
   * Takes the command back if the store has not claimed it yet; otherwise changes nothing.
   *
   * @param mayInterruptIfRunning ignored: nothing is interrupted
   * @return whether it was taken back, so the store will never apply it
   */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return claimed.compareAndSet(false, true) && super.cancel(false);
  }
}
