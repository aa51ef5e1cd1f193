/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.AttemptOutcome;
import dev.sluice.ExecutionContext;
import dev.sluice.Observation;
import dev.sluice.TimeSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One attempt of a managed execution: the context its task sees, and what the attempt left behind
 * for its execution to decide on — the task's result or failure and the classifier's outcome.
 *
 * <p>The {@link #outcome} is what the attempt reports about the service; it is decided while the
 * attempt still holds its lease, so a shared cooldown or circuit breaker can take it with the
 * release. A cancelled attempt reports {@link AttemptOutcome#neutral()}: late work is no evidence.
 *
 * <p>Thread-safe: the attempt's thread writes the result fields before its request's future
 * completes, and the execution reads them after, through that completion.
 */
final class AttemptContext<T> implements ExecutionContext {
  private final String operationId;
  private final int attempt;
  private final CompletableFuture<Void> cancellation = new CompletableFuture<>();
  private volatile Admission admission;

  /** The request that carries this attempt; set once it was made. Guarded by the execution. */
  CompletableFuture<Void> request;

  /** The request's ticket, set before its acquire leaves: the outcome goes out with its release. */
  volatile Ticket ticket;

  /** The attempt timeout's timer while the task runs, else null. */
  volatile TimeSource.Timer timeout;

  /** Whether the task returned or threw; a timeout that comes after is too late. */
  volatile boolean returned;

  // Written by the attempt's thread before its request completes.
  boolean ran;
  T value;
  Throwable failure;
  AttemptOutcome outcome;
  Throwable classifierFailure;

  /** The attempt's observation, set before its request is made; null when nothing observes. */
  Observation observation;

  /** Whether this attempt's release reports the operation finished. */
  volatile boolean lastReported;

  AttemptContext(String operationId, int attempt) {
    this.operationId = operationId;
    this.attempt = attempt;
  }

  @Override
  public Admission admission() {
    return admission;
  }

  void admission(Admission admission) {
    this.admission = admission;
  }

  @Override
  public String operationId() {
    return operationId;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public boolean cancelled() {
    return cancellation.isDone();
  }

  @Override
  public CompletionStage<Void> cancellation() {
    return cancellation.minimalCompletionStage();
  }

  /** Cancels the attempt: its task sees it; its lease stays until the task returns. */
  void cancel() {
    TimeSource.Timer t = timeout;
    if (t != null) {
      t.cancel();
    }
    cancellation.complete(null);
  }

  @Override
  public String toString() {
    return "attempt " + attempt + " of operation " + operationId;
  }
}
