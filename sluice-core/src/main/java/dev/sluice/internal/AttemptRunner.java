/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionTask;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.spi.ReportedOutcome;
import dev.sluice.spi.support.Observed;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Runs one attempt of an execution inside its request's callback, while the attempt holds its
 * lease: arms the attempt timeout, runs the task, and has the classifier judge the result before
 * the lease is released. It never throws: the task's result or failure and the outcome are left on
 * the {@link AttemptContext}, so the request's own failure means a refusal only.
 *
 * <p>Thread-safe; runs on the limiter's executor for {@code execute} and on the calling thread for
 * the blocking {@code call}.
 */
final class AttemptRunner<T> {
  private final ExecutionTask<T> task;
  private final ExecuteOptions options;
  private final AttemptClassifier classifier;
  private final long timeoutNanos;
  private final long deadlineNanos;
  private final TimeSource clock;
  private final AttemptWatch watch;
  private final String pool;
  private final Consumer<AttemptContext<T>> timedOut;
  private final LimiterEvents events;

  /**
   * @param watch where the attempt's one cut time is watched, cheap when it ends in time
   * @param deadlineNanos the execution's deadline in the clock's monotonic time that also cuts a
   *     running attempt short ({@link Long#MAX_VALUE}: the execution watches it itself, or none)
   * @param timedOut what happens when an attempt's timeout or {@code deadlineNanos} passes while
   *     its task runs; called on the timer's thread, so it must only hand work off
   */
  AttemptRunner(
      ExecutionTask<T> task,
      ExecuteOptions options,
      TimeSource clock,
      AttemptWatch watch,
      long deadlineNanos,
      String pool,
      LimiterEvents events,
      Consumer<AttemptContext<T>> timedOut) {
    this.task = task;
    this.options = options;
    this.classifier = options.classifier();
    long timeout = options.attemptTimeoutMillis();
    this.timeoutNanos = timeout < 0 ? -1 : timeout * 1_000_000L;
    this.deadlineNanos = deadlineNanos;
    this.clock = clock;
    this.watch = watch;
    this.pool = pool;
    this.timedOut = timedOut;
    this.events = events;
  }

  /** The request's callback: returns null always; see the type's description. */
  Void run(AttemptContext<T> a, Admission admission) {
    return run(a, admission, Requests.NO_READING);
  }

  /**
   * Like {@link #run(AttemptContext, Admission)}, for a caller that read the clock as the attempt
   * was admitted: {@code nowNanos} is that reading, the attempt's start ({@link
   * Requests#NO_READING} for none).
   */
  Void run(AttemptContext<T> a, Admission admission, long nowNanos) {
    a.admission(admission);
    return start(a, admission.leaseId(), nowNanos);
  }

  /**
   * Like {@link #run(AttemptContext, Admission, long)} for an attempt that ticket {@code t}
   * admitted; the attempt's {@link Admission} is built only if its task asks for it.
   */
  Void run(AttemptContext<T> a, Ticket t, long nowNanos) {
    a.admittedBy(t);
    return start(a, t.lease().id(), nowNanos);
  }

  private Void start(AttemptContext<T> a, long leaseId, long nowNanos) {
    a.ran = true;
    if (a.cancelled()) {
      // The execution ended between the grant and the start: the task must not run.
      a.markReturned();
      a.outcome = AttemptOutcome.neutral();
      report(a);
      return null;
    }
    long started = nowNanos == Requests.NO_READING ? clock.monotonicNanos() : nowNanos;
    // One timer for whichever comes first, the attempt timeout or the deadline.
    long cutAt = timeoutNanos < 0 ? deadlineNanos : Math.min(deadlineNanos, after(started));
    if (cutAt != Long.MAX_VALUE) {
      a.watchedBy = watch;
      watch.watch(a, cutAt, timedOut);
      if (a.cancelled()) {
        watch.unwatch(a);
      }
    }
    events.attemptStarted(a.operationId(), a.attempt(), leaseId);
    try {
      a.value = task.run(a);
    } catch (Throwable e) {
      a.failure = e;
    } finally {
      a.markReturned();
      if (a.watchedBy != null) {
        watch.unwatch(a);
      }
    }
    a.outcome = classify(a);
    if (a.observation != null) {
      Observed.classified(a.observation, a.outcome);
    }
    report(a);
    events.attemptEnded(a.operationId(), a.attempt(), a.outcome, a.failure != null, started);
    return null;
  }

  /**
   * Hands the attempt's outcome to its ticket, which reports it to the pool's shared cooldown and
   * circuit breaker with the release of the lease, in one command; the last attempt's report also
   * ends the operation's record. A neutral attempt that is not the last needs no report: a plain
   * release is no evidence.
   */
  private void report(AttemptContext<?> a) {
    Ticket t = a.ticket;
    AttemptOutcome o = a.outcome;
    if (t == null || o == null) {
      return;
    }
    // Whether a retry may follow is decided again after the release; closing and the deadline can
    // still end the execution there, which then finishes the record itself.
    boolean last = a.reportFinishes() || a.cancelled() || !RetryRule.allows(options, a, false);
    a.lastReported(last);
    if (last) {
      t.finishes = a.operationId();
    }
    if (o instanceof AttemptOutcome.Success) {
      t.reportOutcome(ReportedOutcome.SUCCESS, 0);
    } else if (o instanceof AttemptOutcome.Throttle th) {
      t.reportOutcome(
          ReportedOutcome.THROTTLE, th.retryAfter().map(AttemptRunner::millis).orElse(0L));
    } else if (o instanceof AttemptOutcome.ServiceFailure) {
      t.reportOutcome(ReportedOutcome.SERVICE_FAILURE, 0);
    } else if (last) {
      t.reportOutcome(ReportedOutcome.NEUTRAL, 0);
    }
  }

  /** When the attempt timeout of an attempt started at {@code started} passes; saturated. */
  private long after(long started) {
    long at = started + timeoutNanos;
    return at < started ? Long.MAX_VALUE : at;
  }

  /** A retry-after in whole milliseconds, rounded up so a floor stays a floor; saturated. */
  private static long millis(Duration d) {
    try {
      long ms = d.toMillis();
      return d.minusMillis(ms).isZero() ? ms : Math.addExact(ms, 1);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * The classifier's outcome; neutral for a cancelled attempt (late work is no evidence) and for a
   * classifier that threw or answered null, whose failure then fails the call.
   */
  private AttemptOutcome classify(AttemptContext<T> a) {
    if (a.cancelled()) {
      return AttemptOutcome.neutral();
    }
    AttemptOutcome outcome;
    try {
      outcome = classifier.classify(a.value, a.failure);
    } catch (Throwable e) {
      a.classifierFailure = e;
      return AttemptOutcome.neutral();
    }
    if (outcome == null) {
      a.classifierFailure =
          new SluiceException(
              "the classifier of "
                  + a
                  + " on pool '"
                  + pool
                  + "' answered null; it must answer an AttemptOutcome: success, neutral,"
                  + " throttle or serviceFailure");
      return AttemptOutcome.neutral();
    }
    return outcome;
  }
}
