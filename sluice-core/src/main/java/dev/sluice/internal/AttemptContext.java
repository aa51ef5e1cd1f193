/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.AttemptOutcome;
import dev.sluice.ExecutionContext;
import dev.sluice.Observation;
import dev.sluice.SluiceException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
final class AttemptContext<T> extends AttemptWatch.Watched implements ExecutionContext {
  private static final VarHandle CANCELLATION;
  private static final VarHandle CUT_BY;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CANCELLATION =
          lookup.findVarHandle(AttemptContext.class, "cancellation", CompletableFuture.class);
      CUT_BY = lookup.findVarHandle(AttemptContext.class, "cutBy", SluiceException.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final String operationId;
  private final int attempt;

  /** Set once by {@link #cancel()}, before the cancellation stage (if made) completes. */
  private volatile boolean cancelled;

  /**
   * The cancellation stage, made the first time a task asks for it: most tasks never do, and an
   * attempt is made per call.
   */
  private volatile CompletableFuture<Void> cancellation;

  private volatile Admission admission;

  /** The ticket whose lease admitted the attempt, for an admission built only when asked for. */
  private volatile Ticket admittedBy;

  /** What cut the running attempt short, or a marker that its task returned first; set once. */
  private volatile SluiceException cutBy;

  /** The request that carries this attempt; set once it was made. Guarded by the execution. */
  CompletableFuture<Void> request;

  /** The request's ticket, set before its acquire leaves: the outcome goes out with its release. */
  volatile Ticket ticket;

  /** The watch of the attempt's timeout and deadline while the task runs, else null. */
  volatile AttemptWatch watchedBy;

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
    Admission a = admission;
    if (a == null) {
      Ticket t = admittedBy;
      if (t != null) {
        // Two racing readers build equal records; either may be kept.
        a = t.admission();
        admission = a;
      }
    }
    return a;
  }

  void admission(Admission admission) {
    this.admission = admission;
  }

  /** Admitted by {@code t}'s lease; the {@link Admission} is built if the task asks for it. */
  void admittedBy(Ticket t) {
    this.admittedBy = t;
  }

  /**
   * Records what ended the running attempt first: a cut ({@code why}) or its task's return.
   *
   * @return true if this call decided it
   */
  boolean cut(SluiceException why) {
    return CUT_BY.compareAndSet(this, null, why);
  }

  /** What {@link #cut} recorded first, or {@code null}. */
  SluiceException cutBy() {
    return cutBy;
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
    return cancelled;
  }

  @Override
  public CompletionStage<Void> cancellation() {
    CompletableFuture<Void> c = cancellation;
    if (c == null) {
      CompletableFuture<Void> made = new CompletableFuture<>();
      @SuppressWarnings("unchecked")
      CompletableFuture<Void> raced =
          (CompletableFuture<Void>) CANCELLATION.compareAndExchange(this, null, made);
      c = raced == null ? made : raced;
      // A cancel that read no stage before this one was published completes it here.
      if (cancelled) {
        c.complete(null);
      }
    }
    return c.minimalCompletionStage();
  }

  /** Cancels the attempt: its task sees it; its lease stays until the task returns. */
  void cancel() {
    AttemptWatch w = watchedBy;
    if (w != null) {
      w.unwatch(this);
    }
    cancelled = true;
    CompletableFuture<Void> c = cancellation;
    if (c != null) {
      c.complete(null);
    }
  }

  @Override
  public String toString() {
    return "attempt " + attempt + " of operation " + operationId;
  }
}
