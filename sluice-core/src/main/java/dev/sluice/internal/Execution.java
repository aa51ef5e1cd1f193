/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.ExecutionTimeoutException;
import dev.sluice.Instrumentation;
import dev.sluice.Observation;
import dev.sluice.TimeSource;
import dev.sluice.spi.support.Observed;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * One managed execution: its attempts, one at a time, each a {@code schedule} request of its own;
 * the delays between them, which hold no lease; its deadline; and its end, which comes once.
 *
 * <p>An execution holds one in-flight count of its limiter from the call to its end, so a drain
 * waits for its retries; each attempt's request holds its own, so a close waits for a running
 * attempt even after the execution ended. Timers only hand work to the follow-up executor: they
 * never run user code or complete a future on the timer's thread.
 *
 * <p>Thread-safe: state changes happen under this object's monitor; user code and completions run
 * outside it.
 */
final class Execution<T> implements InFlight, StopsOnClose, RetryHorizon {
  private final LimiterImpl limiter;
  private final ExecutionTask<T> task;
  private final ExecuteOptions options;
  private final String operationId;
  private final ExecutionFuture<T> future = new ExecutionFuture<>();
  private final TimeSource clock;
  private final Executor followUps;
  private final long deadlineNanos;
  private final AttemptRunner<T> runner;
  private final Instrumentation instrumentation;
  private final Observation observation;
  private volatile boolean ended;
  private InFlight outerCompletion;

  // Guarded by this.
  private AttemptContext<T> current;
  private AttemptContext<T> last;
  private TimeSource.Timer deadlineTimer;
  private TimeSource.Timer retryTimer;
  private boolean finished;
  private boolean closeRequested;
  private int attempts;

  /** The failure of the last attempt that failed: a timeout's cause. Guarded by this. */
  private Throwable lastFailure;

  Execution(LimiterImpl limiter, ExecutionTask<T> task, ExecuteOptions options) {
    this.limiter = limiter;
    this.task = task;
    this.options = options;
    this.operationId = OperationIds.next();
    this.clock = limiter.requests().clock();
    this.followUps = limiter.requests().followUps();
    long deadline = options.deadlineMillis();
    this.deadlineNanos =
        deadline < 0 ? Long.MAX_VALUE : clock.monotonicNanos() + deadline * 1_000_000L;
    this.runner =
        new AttemptRunner<>(
            task,
            options,
            clock,
            limiter.requests().attemptWatch(),
            Long.MAX_VALUE,
            limiter.pool(),
            limiter.events(),
            a -> followUps.execute(() -> attemptTimedOut(a)));
    future.bind(this);
    // Made on the submitting thread, whose context it captures; null when nothing observes.
    this.instrumentation = limiter.instrumentation();
    this.observation =
        instrumentation == null
            ? null
            : instrumentation.execute(limiter.pool(), operationId, options);
    future.observe(observation);
  }

  ExecutionFuture<T> future() {
    return future;
  }

  String operationId() {
    return operationId;
  }

  LimiterImpl limiter() {
    return limiter;
  }

  ExecutionTask<T> task() {
    return task;
  }

  /** Starts the first attempt; the caller counted this execution in. */
  void start() {
    if (deadlineNanos != Long.MAX_VALUE) {
      synchronized (this) {
        deadlineTimer =
            limiter
                .requests()
                .deadlines()
                .add(deadlineNanos, () -> followUps.execute(this::deadlinePassed));
      }
    }
    limiter.lifecycle().track(this);
    startAttempt(1);
  }

  private void startAttempt(int n) {
    AttemptContext<T> a = new AttemptContext<>(operationId, n, this);
    if (observation != null) {
      a.observation = Observed.attempt(instrumentation, observation, n);
    }
    synchronized (this) {
      if (finished) {
        return;
      }
      current = a;
      last = a;
      attempts = n;
      retryTimer = null;
    }
    CompletableFuture<Void> request;
    try {
      request =
          limiter
              .requests()
              .scheduleAttempt(admission -> runAttempt(a, admission), options.schedule(), a);
    } catch (RuntimeException e) {
      // Failed as it was made (a stopped clock refused its timer): a request already at the pool
      // is withdrawn, the attempt ends like any refusal, and the record's end, if left to this
      // thread, is still sent.
      if (a.ticket != null) {
        a.ticket.fail(e);
      }
      request = CompletableFuture.failedFuture(e);
    }
    boolean withdraw;
    synchronized (this) {
      a.request = request;
      withdraw = finished;
    }
    if (withdraw) {
      request.cancel(false);
      // The execution ended while this attempt's acquire was being made, so it left the record's
      // end to this thread: sent after the acquire, it ends the record that acquire began.
      endRecordUnlessReported(a);
    }
    request.whenComplete((ignored, refusal) -> attemptEnded(a, refusal));
  }

  /**
   * Ends the operation's record unless attempt {@code a}'s report ended it or will: its task may
   * still run (timed out, cancelled), and then the record stays until its own report ends it.
   */
  private void endRecordUnlessReported(AttemptContext<T> a) {
    if (!a.lastReported() && !a.handFinishToReport()) {
      limiter.shared().control().finishAsync(operationId);
    }
  }

  /**
   * Runs attempt {@code a} under its admission. An attempt that made no report (something escaped
   * before it) ends the operation's record here if the execution had handed it that end, so the
   * record never outlives the work it stands for.
   */
  private Void runAttempt(AttemptContext<T> a, Admission admission) {
    a.running();
    try {
      return runner.run(a, admission);
    } finally {
      if (a.reportAbandoned()) {
        limiter.shared().control().finishAsync(operationId);
      }
    }
  }

  /** The attempt's request completed: after its task and its release, or with a refusal. */
  private void attemptEnded(AttemptContext<T> a, Throwable refusal) {
    synchronized (this) {
      if (finished) {
        return;
      }
      if (a.failure != null) {
        lastFailure = a.failure;
      }
    }
    switch (RetryRule.next(
        options,
        a,
        refusal,
        deadlineNanos == Long.MAX_VALUE ? Requests.NO_READING : clock.monotonicNanos(),
        deadlineNanos,
        limiter.lifecycle().closing())) {
      case REFUSED -> {
        Throwable why = CommandRunner.unwrap(refusal);
        finish(() -> future.fail(why), false);
      }
      case CLASSIFIER_FAILED -> finish(() -> future.fail(a.classifierFailure), false);
      case DEADLINE_PASSED -> finish(() -> future.fail(executionTimeout(a.attempt())), false);
      case RETRY -> scheduleRetry(a);
      case FINISH -> finishWith(a);
    }
  }

  private void scheduleRetry(AttemptContext<T> a) {
    long delayNanos = RetryRule.delayNanos(options.retry(), a);
    int next = a.attempt() + 1;
    boolean stopNow;
    // Armed under the monitor, so a timer anyone can see is one a concurrent end will cancel.
    synchronized (this) {
      stopNow = finished || closeRequested;
      if (!stopNow) {
        current = null;
        retryTimer =
            RetryRule.armRetry(
                clock, a, delayNanos, () -> followUps.execute(() -> startAttempt(next)));
      }
    }
    if (!stopNow) {
      limiter.events().retryScheduled(operationId, next, delayNanos);
    }
    if (stopNow) {
      // A close stops retries after the running attempt: its own result is the call's.
      finishWith(a);
    }
  }

  private void finishWith(AttemptContext<T> a) {
    if (a.failure != null) {
      finish(() -> future.fail(a.failure), false);
    } else {
      finish(() -> future.finish(a.value), false);
    }
  }

  private void deadlinePassed() {
    int started;
    synchronized (this) {
      started = attempts;
    }
    finish(() -> future.fail(executionTimeout(started)), true);
  }

  /** The attempt timeout of {@code a} passed while its task ran. */
  void attemptTimedOut(AttemptContext<T> a) {
    Duration timeout = Duration.ofMillis(options.attemptTimeoutMillis());
    synchronized (this) {
      if (current != a || a.returned()) {
        // The task returned before the timer's turn came: it did not time out.
        return;
      }
    }
    AttemptTimeoutException why =
        new AttemptTimeoutException(limiter.pool(), operationId, a.attempt(), timeout);
    finish(() -> future.fail(why), true);
  }

  /** A close began: stops the execution if it waits between attempts, else stops its retries. */
  @Override
  public void closing() {
    boolean inDelay;
    synchronized (this) {
      closeRequested = true;
      inDelay = retryTimer != null && !finished;
    }
    if (inDelay) {
      finish(() -> future.fail(limiter.lifecycle().closedException()), true);
    }
  }

  /** Ends the execution from outside (its future completed by the caller). */
  boolean stop(BooleanSupplier completion) {
    boolean[] done = new boolean[1];
    finish(() -> done[0] = completion.getAsBoolean(), true);
    return done[0];
  }

  /**
   * Ends the execution once: cancels its timers and, when it ends early ({@code abort}), its
   * current attempt, withdrawing it if it has not started; runs {@code completion}; and counts the
   * execution out of its limiter.
   */
  private void finish(Runnable completion, boolean abort) {
    AttemptContext<T> a;
    AttemptContext<T> latest;
    CompletableFuture<Void> request;
    TimeSource.Timer deadline;
    TimeSource.Timer retry;
    boolean acquireBeingMade;
    synchronized (this) {
      if (finished) {
        return;
      }
      finished = true;
      a = current;
      latest = last;
      request = a == null ? null : a.request;
      acquireBeingMade = a != null && request == null;
      deadline = deadlineTimer;
      retry = retryTimer;
    }
    if (deadline != null) {
      deadline.cancel();
    }
    if (retry != null) {
      retry.cancel();
    }
    if (abort && a != null) {
      a.cancel();
      if (request != null) {
        request.cancel(false);
      }
    }
    if (latest != null && !acquireBeingMade) {
      // Sent now, an end could reach the store before an acquire still being made, which would
      // begin the record again; startAttempt ends it after its acquire instead.
      endRecordUnlessReported(latest);
    }
    limiter.lifecycle().untrack(this);
    try {
      CallbackScope.completing(this, completion);
    } finally {
      end();
    }
  }

  synchronized boolean finished() {
    return finished;
  }

  private ExecutionTimeoutException executionTimeout(int attempts) {
    Throwable cause;
    synchronized (this) {
      cause = lastFailure;
    }
    return new ExecutionTimeoutException(
        limiter.pool(), operationId, Duration.ofMillis(options.deadlineMillis()), attempts, cause);
  }

  @Override
  public LimiterImpl owner() {
    return limiter;
  }

  @Override
  public void end() {
    if (!ended) {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
      }
      limiter.lifecycle().ended();
    }
  }

  @Override
  public InFlight outerCompletion() {
    return outerCompletion;
  }

  @Override
  public void outerCompletion(InFlight outer) {
    this.outerCompletion = outer;
  }

  @Override
  public ExecuteOptions options() {
    return options;
  }

  @Override
  public TimeSource clock() {
    return clock;
  }

  @Override
  public long deadlineNanos() {
    return deadlineNanos;
  }

  @Override
  public boolean limiterClosing() {
    return limiter.lifecycle().closing();
  }
}
