/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Observation;
import dev.sluice.spi.support.Observed;
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
  private Observation observation;

  void bind(Ticket ticket) {
    this.ticket = ticket;
  }

  /** Ends {@code observation} (if not null) just before this future completes. */
  void observe(Observation observation) {
    this.observation = observation;
  }

  /** The observation of this request, or null. */
  Observation observation() {
    return observation;
  }

  // Each caller completion runs inside the withdrawal, so the future is done before the limiter
  // counts the request as ended and a concurrent close() can return.

  @Override
  public boolean complete(T value) {
    return ticket.withdraw(
        new WithdrawReason.CallerCompletion(
            () -> {
              Observed.cancelled(observation, "withdrawn by the caller before it started");
              super.complete(value);
            }));
  }

  @Override
  public boolean completeExceptionally(Throwable ex) {
    if (ex == null) {
      throw new NullPointerException("ex");
    }
    return ticket.withdraw(
        new WithdrawReason.CallerCompletion(
            () -> {
              Observed.cancelled(observation, "withdrawn by the caller before it started");
              super.completeExceptionally(ex);
            }));
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return ticket.withdraw(
        new WithdrawReason.CallerCompletion(
            () -> {
              Observed.cancelled(observation, "withdrawn by the caller before it started");
              super.cancel(false);
            }));
  }

  /**
   * Refused: the limiter decides this future's outcome, and forcing one would break the promise
   * that it completes only after the lease was released.
   */
  @Override
  public void obtrudeValue(T value) {
    throw new UnsupportedOperationException("a limiter's future cannot be obtruded; use cancel");
  }

  /** Refused, like {@link #obtrudeValue}. */
  @Override
  public void obtrudeException(Throwable ex) {
    throw new UnsupportedOperationException("a limiter's future cannot be obtruded; use cancel");
  }

  /** Completes with the callback's result. */
  void finish(T value) {
    Observed.end(observation, null);
    super.complete(value);
  }

  /** Completes with a failure decided by the limiter. */
  void fail(Throwable failure) {
    Observed.end(observation, failure);
    super.completeExceptionally(failure);
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
