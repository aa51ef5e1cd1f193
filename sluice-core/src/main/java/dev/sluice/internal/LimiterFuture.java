/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The future {@code schedule} returns. Completing it from outside before the callback started —
 * {@code cancel}, {@code complete}, {@code completeExceptionally}, or {@code orTimeout} and {@code
 * completeOnTimeout}, which call those — withdraws the request; afterwards those calls return false
 * and change nothing. The limiter completes it through {@link #finish} and {@link #fail}.
 *
 * <p>Dependent stages are plain {@link CompletableFuture}s.
 */
final class LimiterFuture<T> extends CompletableFuture<T> {
  private Ticket ticket;

  void bind(Ticket ticket) {
    this.ticket = ticket;
  }

  @Override
  public boolean complete(T value) {
    return ticket.withdraw(null) && super.complete(value);
  }

  @Override
  public boolean completeExceptionally(Throwable ex) {
    if (ex == null) {
      throw new NullPointerException("ex");
    }
    return ticket.withdraw(null) && super.completeExceptionally(ex);
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return ticket.withdraw(null) && super.cancel(false);
  }

  /** Completes with the callback's result. */
  void finish(T value) {
    super.complete(value);
  }

  /** Completes with a failure decided by the limiter. */
  void fail(Throwable failure) {
    super.completeExceptionally(failure);
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
