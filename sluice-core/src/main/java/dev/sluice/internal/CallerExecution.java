/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AttemptTimeoutException;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.ExecutionTimeoutException;
import dev.sluice.Instrumentation;
import dev.sluice.Observation;
import dev.sluice.QueueTimeoutException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.support.Observed;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The blocking {@code call(task, options)}: a managed execution whose attempts run on the calling
 * thread, like {@code call(Callable)}, and whose delays between attempts park that thread until a
 * timer on the limiter's clock wakes it. The decisions — retry, classifier, deadline — are {@link
 * RetryRule}'s and {@link AttemptRunner}'s, shared with {@link Execution}.
 *
 * <p>A timeout or deadline that passes while the task runs cancels the attempt's context at once;
 * since the calling thread is the one running the task, the call answers with the timeout when the
 * task returns, and the attempt holds its lease until then.
 *
 * <p>With an {@link Instrumentation}, the execution and each attempt are observed as {@code
 * execute}'s are, all on the calling thread: each attempt's observation is entered around its task
 * and ends after its release, the execution's before the call returns or throws.
 *
 * <p>Used by one thread, the caller; timers and a close only set flags and unpark it.
 */
final class CallerExecution<T> implements StopsOnClose, Consumer<AttemptContext<T>>, RetryHorizon {
  /** Marks an attempt whose task returned before any timeout cut it. */
  private static final SluiceException RETURNED = new SluiceException("returned");

  private final LimiterImpl limiter;
  private final ExecuteOptions options;
  private final String operationId = OperationIds.next();
  private final TimeSource clock;
  private final Executor followUps;
  private final AttemptRunner<T> runner;
  private final Thread caller = Thread.currentThread();
  private final long deadlineNanos;

  /** The clock when the call began, if it has a deadline; the first attempt's queue wait's. */
  private final long beganNanos;

  private volatile boolean pastDeadline;
  private volatile boolean closeRequested;
  private volatile boolean delayOver;

  /** The attempt that runs now; what cut it short, if anything, is on it ({@link #cut}). */
  private volatile AttemptContext<T> running;

  private int attempts;
  private AttemptContext<T> last;

  /**
   * The failure of the last attempt that failed: a timeout's cause. Volatile: a deadline's timer
   * builds its timeout on another thread.
   */
  private volatile Throwable lastFailure;

  /** When the last attempt's task returned, if the runner read the clock then; else no reading. */
  private long lastEndNanos = Requests.NO_READING;

  /** The hook, or null: then nothing here observes and the call costs one null check. */
  private final Instrumentation instrumentation;

  /** The execution's observation, once made; null when nothing observes. */
  private Observation observation;

  CallerExecution(LimiterImpl limiter, ExecutionTask<T> task, ExecuteOptions options) {
    this.limiter = limiter;
    this.options = options;
    this.clock = limiter.requests().clock();
    this.followUps = limiter.requests().followUps();
    long deadline = options.deadlineMillis();
    this.beganNanos = deadline < 0 ? Requests.NO_READING : clock.monotonicNanos();
    this.deadlineNanos = deadline < 0 ? Long.MAX_VALUE : beganNanos + deadline * 1_000_000L;
    this.instrumentation = limiter.instrumentation();
    this.runner =
        new AttemptRunner<>(
            task,
            options,
            clock,
            limiter.requests().attemptWatch(),
            deadlineNanos,
            limiter.pool(),
            limiter.events(),
            this);
  }

  /**
   * The runner's timer of attempt {@code a} fired (its timeout or the deadline): the cut is handed
   * off, as the timer's thread must only hand work off. The execution itself is the runner's
   * callback, so a call makes no object for it.
   */
  @Override
  public void accept(AttemptContext<T> a) {
    followUps.execute(() -> cut(a, cutBy(a)));
  }

  /**
   * Runs the execution; the caller counted it in, and this counts it out. The deadline needs no
   * timer of its own: a queue wait is cut to it, a running attempt's one timer is armed for the
   * earlier of its timeout and the deadline, and only a delay between attempts arms one.
   */
  T call() throws Exception {
    try {
      if (instrumentation == null) {
        return attempts();
      }
      // Inside the try: a hook that throws reaches the caller, and the call is counted out.
      observation = instrumentation.execute(limiter.pool(), operationId, options);
      return observed(observation);
    } finally {
      if (last != null && !last.lastReported()) {
        // No report ended the operation's record (refused, timed out, stopped between attempts).
        limiter.shared().control().finishAsync(operationId);
      }
      // The attempts borrowed this execution's count. The last one may still wait for its store
      // clean-up (withdrawn at its queue deadline, or by a close): then it counts out for both.
      Ticket t = last == null ? null : last.ticket;
      if (t == null || !t.takeOverCount()) {
        limiter.lifecycle().ended();
      }
    }
  }

  /** Runs the attempts and ends {@code o} with how the call ends. */
  private T observed(Observation o) throws Exception {
    T value;
    try {
      value = attempts();
    } catch (Throwable e) {
      Observed.end(o, e);
      throw e;
    }
    Observed.end(o, null);
    return value;
  }

  private T attempts() throws Exception {
    for (int n = 1; ; n++) {
      AttemptContext<T> a = observation == null ? attempt(n) : observedAttempt(n);
      if (a.failure != null) {
        lastFailure = a.failure;
      }
      long now = deadlineNanos == Long.MAX_VALUE ? Requests.NO_READING : reading(lastEndNanos);
      long deadline = pastDeadline ? Long.MIN_VALUE : deadlineNanos;
      switch (RetryRule.next(options, a, null, now, deadline, limiter.lifecycle().closing())) {
        case REFUSED -> throw new IllegalStateException(a + " did not run");
        case CLASSIFIER_FAILED -> throw rethrow(a.classifierFailure);
        case DEADLINE_PASSED -> throw executionTimeout();
        case FINISH -> {
          return result(a);
        }
        case RETRY -> {
          if (closeRequested || limiter.lifecycle().closing()) {
            // A close stops retries after the running attempt: its own result is the call's.
            return result(a);
          }
          long delayNanos = RetryRule.delayNanos(options.retry(), a);
          limiter.events().retryScheduled(operationId, n + 1, delayNanos);
          delay(a, delayNanos);
        }
      }
    }
  }

  /** Makes attempt {@code n} and ends its observation once it was released. */
  private AttemptContext<T> observedAttempt(int n) throws Exception {
    AttemptContext<T> a;
    try {
      a = attempt(n);
    } catch (Throwable e) {
      Observed.end(last.observation, e);
      throw e;
    }
    // Like execute's attempts: the task's own failure is the classifier's to judge, not the end's.
    Observed.end(a.observation, null);
    return a;
  }

  /** Waits for admission, runs attempt {@code n} on this thread and releases its lease. */
  private AttemptContext<T> attempt(int n) throws Exception {
    attempts = n;
    AttemptContext<T> a = new AttemptContext<>(operationId, n, this);
    last = a;
    if (observation != null) {
      a.observation = Observed.attempt(instrumentation, observation, n);
    }
    BlockingTicket t;
    // The clock is read as few times as the decisions need: each reading costs tens of
    // nanoseconds on a virtual machine, a fair part of a call's own cost.
    // The first attempt's reading is the call's own, unless an instrumentation's hooks ran since:
    // a store that applies the acquire at this reading lets the attempt start at it.
    long now =
        deadlineNanos == Long.MAX_VALUE || (n == 1 && observation == null)
            ? beganNanos
            : clock.monotonicNanos();
    try {
      t =
          limiter
              .requests()
              .acquireAttempt(
                  options.schedule().weight(),
                  options.schedule().leaseLifetimeMillis(limiter.config()),
                  queueWait(now),
                  now,
                  options.schedule().circuitFailFast(),
                  a);
    } catch (QueueTimeoutException e) {
      if (pastDeadline()) {
        throw executionTimeout();
      }
      throw e;
    }
    running = a;
    // The start check read the clock if the request had a queue deadline: the attempt starts then.
    long started = t.startNanos != Requests.NO_READING ? t.startNanos : clock.monotonicNanos();
    if (pastDeadline || started >= deadlineNanos) {
      cut(a, executionTimeout());
    }
    if (a.observation == null) {
      limiter.requests().runAttempt(t, runner, a, started, deadlineNanos != Long.MAX_VALUE);
      lastEndNanos = t.endNanos;
    } else {
      limiter.requests().runHeld(t, () -> observedRun(a, t, started));
      lastEndNanos = Requests.NO_READING;
    }
    if (!a.cut(RETURNED)) {
      throw a.cutBy();
    }
    return a;
  }

  /** Runs the attempt's task through the runner, inside its observation. */
  private Void observedRun(AttemptContext<T> a, BlockingTicket t, long started) {
    Observation o = a.observation;
    Observed.admitted(o, t.admission());
    Observation.Scope scope = Observed.enter(o);
    try {
      return runner.run(a, t.admission(), started);
    } finally {
      Observed.exit(scope);
    }
  }

  /**
   * The attempt's queue wait, cut to what is left of the deadline at {@code now} (reported as the
   * deadline).
   */
  private long queueWait(long now) {
    long wait = options.schedule().queueTimeoutMillis();
    if (deadlineNanos == Long.MAX_VALUE || wait == 0) {
      return wait;
    }
    long left = Math.max(1, (deadlineNanos - now + 999_999) / 1_000_000L);
    return wait < 0 ? left : Math.min(wait, left);
  }

  /**
   * Parks this thread until the delay's timer, the deadline, a close or an interrupt. Only here
   * does a close need to reach this thread, so only here is the execution tracked for it; a running
   * attempt asks the lifecycle whether a close began when it ends.
   */
  private void delay(AttemptContext<T> after, long nanos) throws InterruptedException {
    delayOver = false;
    limiter.lifecycle().track(this);
    TimeSource.Timer timer = RetryRule.armRetry(clock, after, nanos, this::wake);
    TimeSource.Timer deadline =
        deadlineNanos == Long.MAX_VALUE
            ? null
            : limiter.requests().deadlines().add(deadlineNanos, this::deadlinePassed);
    try {
      while (!delayOver && !pastDeadline && !closeRequested) {
        LockSupport.park(this);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      }
    } finally {
      limiter.lifecycle().untrack(this);
      timer.cancel();
      if (deadline != null) {
        deadline.cancel();
      }
    }
    if (pastDeadline()) {
      throw executionTimeout();
    }
    if (closeRequested) {
      throw limiter.lifecycle().closedException();
    }
  }

  private void wake() {
    delayOver = true;
    LockSupport.unpark(caller);
  }

  private void deadlinePassed() {
    pastDeadline = true;
    AttemptContext<T> c = running;
    if (c != null) {
      followUps.execute(() -> cut(c, executionTimeout()));
    }
    LockSupport.unpark(caller);
  }

  /** Why the timer of attempt {@code a} fired: the deadline, or else its own timeout. */
  private SluiceException cutBy(AttemptContext<T> a) {
    return pastDeadline() ? executionTimeout() : attemptTimeout(a.attempt());
  }

  /** Cuts the running attempt {@code a} short with {@code why}, unless its task returned. */
  private void cut(AttemptContext<T> a, SluiceException why) {
    if (running == a && a.cut(why)) {
      a.cancel();
    }
  }

  @Override
  public void closing() {
    closeRequested = true;
    LockSupport.unpark(caller);
  }

  private boolean pastDeadline() {
    return pastDeadline(Requests.NO_READING);
  }

  /** Whether the deadline passed, judged at {@code readNanos} if that is a reading, else now. */
  private boolean pastDeadline(long readNanos) {
    if (pastDeadline) {
      return true;
    }
    if (deadlineNanos == Long.MAX_VALUE) {
      return false;
    }
    return reading(readNanos) >= deadlineNanos;
  }

  /** {@code readNanos} if it is a reading, else a reading taken now. */
  private long reading(long readNanos) {
    return readNanos == Requests.NO_READING ? clock.monotonicNanos() : readNanos;
  }

  private T result(AttemptContext<T> a) throws Exception {
    if (a.failure != null) {
      throw rethrow(a.failure);
    }
    return a.value;
  }

  private static Exception rethrow(Throwable t) {
    if (t instanceof Error e) {
      throw e;
    }
    return (Exception) t;
  }

  private AttemptTimeoutException attemptTimeout(int attempt) {
    return new AttemptTimeoutException(
        limiter.pool(), operationId, attempt, Duration.ofMillis(options.attemptTimeoutMillis()));
  }

  private ExecutionTimeoutException executionTimeout() {
    return new ExecutionTimeoutException(
        limiter.pool(),
        operationId,
        Duration.ofMillis(options.deadlineMillis()),
        attempts,
        lastFailure);
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
