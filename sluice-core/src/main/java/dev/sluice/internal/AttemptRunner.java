/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.AttemptClassifier;
import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import java.util.concurrent.Executor;

/**
 * Runs one attempt of an execution inside its request's callback, while the attempt holds its
 * lease: arms the attempt timeout, runs the task, and has the classifier judge the result before
 * the lease is released. It never throws: the task's result or failure and the outcome are left on
 * the {@link AttemptContext}, so the request's own failure means a refusal only.
 *
 * <p>Thread-safe; runs on the limiter's executor.
 */
final class AttemptRunner<T> {
  private final Execution<T> execution;
  private final AttemptClassifier classifier;
  private final long timeoutNanos;
  private final TimeSource clock;
  private final Executor followUps;

  AttemptRunner(Execution<T> execution, ExecuteOptions options, TimeSource clock) {
    this.execution = execution;
    this.classifier = options.classifier();
    long timeout = options.attemptTimeoutMillis();
    this.timeoutNanos = timeout < 0 ? -1 : timeout * 1_000_000L;
    this.clock = clock;
    this.followUps = execution.limiter().requests().followUps();
  }

  /** The request's callback: returns null always; see the type's description. */
  Void run(AttemptContext<T> a, Admission admission) {
    a.admission(admission);
    a.ran = true;
    if (a.cancelled()) {
      // The execution ended between the grant and the start: the task must not run.
      a.returned = true;
      a.outcome = AttemptOutcome.neutral();
      return null;
    }
    if (timeoutNanos >= 0) {
      a.timeout =
          clock.schedule(() -> followUps.execute(() -> execution.attemptTimedOut(a)), timeoutNanos);
      if (a.cancelled()) {
        a.timeout.cancel();
      }
    }
    try {
      a.value = execution.task().run(a);
    } catch (Throwable e) {
      a.failure = e;
    } finally {
      a.returned = true;
      TimeSource.Timer t = a.timeout;
      if (t != null) {
        t.cancel();
      }
    }
    a.outcome = classify(a);
    return null;
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
                  + execution.limiter().pool()
                  + "' answered null; it must answer an AttemptOutcome: success, neutral,"
                  + " throttle or serviceFailure");
      return AttemptOutcome.neutral();
    }
    return outcome;
  }
}
