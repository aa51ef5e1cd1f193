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
final class AttemptContext<T> extends AttemptWatch.Watched
    implements ExecutionContext, RetryForecast {
  private static final VarHandle CANCELLATION;
  private static final VarHandle CUT_BY;
  private static final VarHandle ADMITTED_BY;
  private static final VarHandle RETURNED;
  private static final VarHandle LAST_REPORTED;
  private static final VarHandle FINISHING;

  // Who ends the operation's record if the execution ends while the task may run (finishing).
  private static final int NOT_RUNNING = 0;
  private static final int RUNNING = 1;
  private static final int REPORT_FINISHES = 2;
  private static final int REPORTED = 3;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CANCELLATION =
          lookup.findVarHandle(AttemptContext.class, "cancellation", CompletableFuture.class);
      CUT_BY = lookup.findVarHandle(AttemptContext.class, "cutBy", SluiceException.class);
      ADMITTED_BY = lookup.findVarHandle(AttemptContext.class, "admittedBy", Ticket.class);
      RETURNED = lookup.findVarHandle(AttemptContext.class, "returned", boolean.class);
      LAST_REPORTED = lookup.findVarHandle(AttemptContext.class, "lastReported", boolean.class);
      FINISHING = lookup.findVarHandle(AttemptContext.class, "finishing", int.class);
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

  // The fields an attempt's own thread sets for others to read are volatile for their readers, and
  // set with release stores: each is a flag or a reference that other threads only look at, never
  // a side of a handshake in which this thread must then see the other's store, and a volatile
  // store costs a fence (about 6 ns here) where a release store costs none on x86.

  /**
   * The request's ticket, set before its acquire leaves: the outcome goes out with its release.
   * Plain: read only by the thread that runs the attempt, which the acquire's grant reaches through
   * a safe hand-over.
   */
  Ticket ticket;

  /**
   * The watch of the attempt's timeout and deadline while the task runs, else null. Written by the
   * thread that runs the attempt, before the watch's stripe lock publishes the attempt; {@link
   * #cancel()} may read it on another thread without an edge, and then a stale null only skips an
   * early unwatch, which the attempt's own thread does when its task returns.
   */
  AttemptWatch watchedBy;

  /** Whether the task returned or threw; a timeout that comes after is too late. */
  private volatile boolean returned;

  /**
   * The policy's jittered backoff after this attempt, in milliseconds, once drawn ({@link
   * RetryRule#delayNanos}); -1 before. Written by whoever decides first whether the next attempt
   * starts in time, the attempt's thread or the execution's after the attempt's request completed,
   * which orders the two.
   */
  long backoffMillis = -1;

  // Written by the attempt's thread before its request completes.
  boolean ran;
  T value;
  Throwable failure;
  AttemptOutcome outcome;
  Throwable classifierFailure;

  /** The attempt's observation, set before its request is made; null when nothing observes. */
  Observation observation;

  /** Whether this attempt's release reports the operation finished. */
  private volatile boolean lastReported;

  /**
   * Settles, between an execution that ends while this attempt's task may run and the attempt's
   * report, which of them ends the operation's record: NOT_RUNNING, RUNNING, REPORT_FINISHES or
   * REPORTED. Only an execution whose end can come while its task runs ({@code execute}) marks it
   * running; a blocking call's attempt runs on the thread that ends the call.
   */
  private volatile int finishing;

  /** The execution, for a forecast of whether a retry follows. */
  private final RetryHorizon horizon;

  /**
   * The reading the deadline was judged at for a retry after this attempt, or {@link
   * Requests#NO_READING}: a {@link #retryFollows forecast}'s, which the execution then judges at
   * too, or else the execution's own; the retry's timer counts its delay from it, so the retry
   * starts when the judgement said, before the deadline. Written by the attempt's task before its
   * request completes, or by the execution's thread after.
   */
  long judgedAtNanos = Requests.NO_READING;

  AttemptContext(String operationId, int attempt, RetryHorizon horizon) {
    this.operationId = operationId;
    this.attempt = attempt;
    this.horizon = horizon;
  }

  @Override
  public boolean retryFollows(AttemptOutcome outcome) {
    long deadline = horizon.deadlineNanos();
    if (deadline != Long.MAX_VALUE) {
      judgedAtNanos = horizon.clock().monotonicNanos();
    }
    return RetryRule.permits(horizon.options(), this, outcome, null)
        && !horizon.limiterClosing()
        && RetryRule.startsInTime(
            horizon.options().retry(), this, outcome, judgedAtNanos, deadline);
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
    ADMITTED_BY.setRelease(this, t);
  }

  /** The task returned or threw (or was never run); set by the attempt's thread. */
  void markReturned() {
    RETURNED.setRelease(this, true);
  }

  /** Whether the task returned or threw; a timeout that comes after is too late. */
  boolean returned() {
    return returned;
  }

  /** Sets whether this attempt's release reports the operation finished; the attempt's thread. */
  void lastReported(boolean last) {
    LAST_REPORTED.setRelease(this, last);
  }

  /** Whether this attempt's release reports the operation finished. */
  boolean lastReported() {
    return lastReported;
  }

  /**
   * The task is about to run: from now on this attempt reports, when its task ends. A volatile
   * write, ordered before the start's read of {@link #cancelled()}: an execution that ends at the
   * same time either sees the attempt running and hands it the record's end, or this start sees it
   * cancelled and reports at once.
   */
  void running() {
    FINISHING.setVolatile(this, RUNNING);
  }

  /**
   * The attempt's task and report are over: whether the execution had handed the end of the
   * operation's record to a report that was never made (something escaped before it), which the
   * caller must then end itself. False once the report was made.
   */
  boolean reportAbandoned() {
    return (int) FINISHING.getAndSet(this, REPORTED) == REPORT_FINISHES;
  }

  /**
   * The execution ended: hands the end of the operation's record to this attempt's report, if the
   * task runs and that report is not made yet. The record then stays while the task runs, as its
   * lease does, so an owner that dies meanwhile leaves it unconfirmed.
   *
   * @return whether the report took it over; if not, the execution ends the record itself
   */
  boolean handFinishToReport() {
    return FINISHING.compareAndSet(this, RUNNING, REPORT_FINISHES);
  }

  /**
   * The attempt's report is being made: whether the execution, which ended while the task ran,
   * handed it the end of the operation's record; after this no hand-off can come.
   */
  boolean reportFinishes() {
    return finishing != NOT_RUNNING && !FINISHING.compareAndSet(this, RUNNING, REPORTED);
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
