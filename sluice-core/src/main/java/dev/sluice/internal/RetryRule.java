/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.RetryPolicy;
import dev.sluice.TimeSource;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a managed execution tries again, and after how long. Stateless.
 *
 * <p>Another attempt follows only when every condition holds: the caller declared the operation
 * replay-safe; the classifier judged the attempt transient (throttle or service failure) and did
 * not forbid a retry; the policy has attempts left; for an attempt that threw, the policy's {@code
 * retryOn} accepts the exception; the limiter is not closing; and the next attempt could start
 * before the execution's deadline. A retry the deadline would cut off before it starts is no retry:
 * the attempt's own result is the execution's at once, rather than a timeout when the deadline
 * comes.
 */
final class RetryRule {
  /** The longest delay: ten years, like every other duration setting, far from overflow. */
  private static final Duration LONGEST = Duration.ofDays(3650);

  private RetryRule() {}

  /** What an execution does once an attempt ended; the same rules for both execution paths. */
  enum Next {
    /** The attempt's request was refused, or it never ran: fail with the refusal. */
    REFUSED,
    /** The classifier threw or answered nonsense: fail with that. */
    CLASSIFIER_FAILED,
    /** The deadline passed, even if its timer is late: a result after it is a timeout. */
    DEADLINE_PASSED,
    /** Try again after {@link #delayNanos}. */
    RETRY,
    /** Finish with the attempt's own result or exception. */
    FINISH
  }

  /**
   * The decision after attempt {@code a} ended.
   *
   * @param refusal why its request was refused, or null
   * @param nowNanos a reading of the execution's clock taken after the attempt ended; any value
   *     when there is no deadline
   * @param deadlineNanos the execution's deadline on that clock, or {@link Long#MAX_VALUE}
   * @param closing whether the limiter is closing
   */
  static Next next(
      ExecuteOptions options,
      AttemptContext<?> a,
      Throwable refusal,
      long nowNanos,
      long deadlineNanos,
      boolean closing) {
    if (refusal != null || !a.ran) {
      return Next.REFUSED;
    }
    if (a.classifierFailure != null) {
      if (a.failure != null && a.failure != a.classifierFailure) {
        a.classifierFailure.addSuppressed(a.failure);
      }
      return Next.CLASSIFIER_FAILED;
    }
    if (deadlineNanos != Long.MAX_VALUE && nowNanos >= deadlineNanos) {
      return Next.DEADLINE_PASSED;
    }
    // Judged at the reading a forecast used, if the task asked for one: the same verdict.
    if (a.judgedAtNanos == Requests.NO_READING) {
      a.judgedAtNanos = nowNanos;
    }
    long at = a.judgedAtNanos;
    return allows(options, a, closing)
            && startsInTime(options.retry(), a, a.outcome, at, deadlineNanos)
        ? Next.RETRY
        : Next.FINISH;
  }

  /**
   * Arms the timer of the retry after {@code a}: {@code delayNanos} from the reading its deadline
   * was judged at ({@link AttemptContext#judgedAtNanos}), or from now without a deadline.
   */
  static TimeSource.Timer armRetry(
      TimeSource clock, AttemptContext<?> a, long delayNanos, Runnable retry) {
    return a.judgedAtNanos == Requests.NO_READING
        ? clock.schedule(retry, delayNanos)
        : clock.scheduleAtNanos(retry, a.judgedAtNanos + delayNanos);
  }

  /**
   * Whether the attempt after {@code a}, which ended with {@code outcome}, {@link #delayNanos
   * delayed} from {@code nowNanos}, would start before {@code deadlineNanos} ({@link
   * Long#MAX_VALUE}: no deadline).
   */
  static boolean startsInTime(
      RetryPolicy policy,
      AttemptContext<?> a,
      AttemptOutcome outcome,
      long nowNanos,
      long deadlineNanos) {
    return deadlineNanos == Long.MAX_VALUE
        || delayNanos(policy, a, outcome) < deadlineNanos - nowNanos;
  }

  static boolean allows(ExecuteOptions options, AttemptContext<?> a, boolean closing) {
    return permits(options, a, a.outcome, a.failure) && !closing;
  }

  /**
   * Whether the options let an attempt follow {@code a} ending with {@code outcome} and {@code
   * failure} (null for none): replay-safe, transient, attempts left, and an accepted exception.
   */
  static boolean permits(
      ExecuteOptions options, AttemptContext<?> a, AttemptOutcome outcome, Throwable failure) {
    RetryPolicy policy = options.retry();
    return options.replaySafe()
        && outcome.allowsRetry()
        && a.attempt() < policy.maxAttempts()
        && (failure == null || policy.retryOn().test(failure));
  }

  /**
   * The delay before the next attempt: the policy's jittered backoff, raised to a throttle's
   * retry-after, which is a floor even beyond the policy's largest delay. The jitter is drawn once
   * per attempt, so every look at the next attempt's start sees the same delay.
   */
  static long delayNanos(RetryPolicy policy, AttemptContext<?> a) {
    return delayNanos(policy, a, a.outcome);
  }

  /** Like {@link #delayNanos(RetryPolicy, AttemptContext)}, for {@code a} ending with {@code o}. */
  private static long delayNanos(RetryPolicy policy, AttemptContext<?> a, AttemptOutcome o) {
    long millis = a.backoffMillis;
    if (millis < 0) {
      millis = policy.delayAfter(a.attempt(), ThreadLocalRandom.current().nextDouble()).toMillis();
      a.backoffMillis = millis;
    }
    if (o instanceof AttemptOutcome.Throttle t && t.retryAfter().isPresent()) {
      Duration floor = t.retryAfter().get();
      millis =
          Math.max(millis, floor.compareTo(LONGEST) > 0 ? LONGEST.toMillis() : floor.toMillis());
    }
    return millis * 1_000_000L;
  }
}
