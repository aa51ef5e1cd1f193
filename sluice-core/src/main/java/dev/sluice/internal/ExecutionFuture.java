/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Observation;
import dev.sluice.spi.support.Observed;
import java.util.concurrent.CompletableFuture;

/**
 * The future {@code execute} returns. Completing it from outside — {@code cancel}, {@code
 * complete}, {@code completeExceptionally}, {@code orTimeout} — ends the execution at once, before
 * or after an attempt started: the running attempt is cancelled (it keeps its lease until its task
 * returns), a waiting one is withdrawn, and no attempt follows. The execution completes it through
 * {@link #finish} and {@link #fail}.
 *
 * <p>Dependent stages are plain {@link CompletableFuture}s.
 */
final class ExecutionFuture<T> extends CompletableFuture<T> {
  private Execution<T> execution;
  private Observation observation;

  void bind(Execution<T> execution) {
    this.execution = execution;
  }

  /** Ends {@code observation} (if not null) just before this future completes. */
  void observe(Observation observation) {
    this.observation = observation;
  }

  @Override
  public boolean complete(T value) {
    return execution.stop(
        () -> {
          Observed.cancelled(observation, "ended by the caller");
          return super.complete(value);
        });
  }

  @Override
  public boolean completeExceptionally(Throwable ex) {
    if (ex == null) {
      throw new NullPointerException("ex");
    }
    return execution.stop(
        () -> {
          Observed.cancelled(observation, "ended by the caller");
          return super.completeExceptionally(ex);
        });
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return execution.stop(
        () -> {
          Observed.cancelled(observation, "ended by the caller");
          return super.cancel(false);
        });
  }

  /** Refused: the execution decides this future's outcome; use {@code cancel}. */
  @Override
  public void obtrudeValue(T value) {
    throw new UnsupportedOperationException("an execution's future cannot be obtruded; use cancel");
  }

  /** Refused, like {@link #obtrudeValue}. */
  @Override
  public void obtrudeException(Throwable ex) {
    throw new UnsupportedOperationException("an execution's future cannot be obtruded; use cancel");
  }

  /** Completes with the result. */
  void finish(T value) {
    Observed.end(observation, null);
    super.complete(value);
  }

  /** Completes with a failure decided by the execution. */
  void fail(Throwable failure) {
    Observed.end(observation, failure);
    super.completeExceptionally(failure);
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }
}
