/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of one managed execution ({@link Limiter#execute(ExecutionTask, ExecuteOptions)}):
 * whether the operation may be replayed, how attempts are judged and retried, and how long the
 * whole and each attempt may take.
 *
 * <pre>{@code
 * ExecuteOptions options = ExecuteOptions.builder()
 *     .replaySafe(true)                                      // the service dedupes by operationId
 *     .classifier(AttemptClassifier.exceptionsAreServiceFailures())
 *     .retry(RetryPolicy.builder().maxAttempts(5).build())
 *     .deadline(Duration.ofSeconds(30))
 *     .attemptTimeout(Duration.ofSeconds(5))
 *     .build();
 * }</pre>
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>Setting</th><th>Default</th><th>Turned off by</th></tr>
 *   <tr><td>{@code replaySafe}</td><td>false: never replayed</td><td></td></tr>
 *   <tr><td>{@code classifier}</td><td>{@link AttemptClassifier#standard()}: results succeed,
 *       exceptions are neutral</td><td></td></tr>
 *   <tr><td>{@code retry}</td><td>{@link RetryPolicy#ofDefaults()}: 3 attempts, 500 ms doubling to
 *       10 s, ±20 % jitter</td><td>{@link Builder#noRetry()}</td></tr>
 *   <tr><td>{@code deadline}</td><td>5 min from the call</td><td>{@link Builder#noDeadline()}</td>
 *       </tr>
 *   <tr><td>{@code attemptTimeout}</td><td>60 s from each attempt's start</td>
 *       <td>{@link Builder#noAttemptTimeout()}</td></tr>
 *   <tr><td>{@code schedule}</td><td>{@link ScheduleOptions#defaults()}, for each attempt</td><td>
 *       </td></tr>
 * </table>
 *
 * <p>An attempt is tried again only when all of these hold: the operation is {@code replaySafe},
 * the classifier judged the attempt transient ({@link AttemptOutcome#isTransient()}) without
 * forbidding a retry, the retry policy has attempts left and (for an attempt that threw) its {@link
 * RetryPolicy#retryOn()} accepts the exception.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ExecuteOptions {
  private static final ExecuteOptions DEFAULTS = builder().build();
  private static final RetryPolicy NO_RETRY = RetryPolicy.builder().maxAttempts(1).build();

  private final boolean replaySafe;
  private final AttemptClassifier classifier;
  private final RetryPolicy retry;
  private final long deadlineMillis;
  private final long attemptTimeoutMillis;
  private final ScheduleOptions schedule;

  private ExecuteOptions(Builder b) {
    this.replaySafe = b.replaySafe;
    this.classifier = b.classifier;
    this.retry = b.retry;
    this.deadlineMillis = b.deadlineMillis;
    this.attemptTimeoutMillis = b.attemptTimeoutMillis;
    this.schedule = b.schedule;
  }

  /** Returns the defaults; see the table above. */
  public static ExecuteOptions defaults() {
    return DEFAULTS;
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether the caller declared that the operation may run more than once. */
  public boolean replaySafe() {
    return replaySafe;
  }

  /** How each attempt is judged. */
  public AttemptClassifier classifier() {
    return classifier;
  }

  /** How many attempts, and how far apart. */
  public RetryPolicy retry() {
    return retry;
  }

  /** The longest time from the call to the result, or empty for none. */
  public Optional<Duration> deadline() {
    return deadlineMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(deadlineMillis));
  }

  /** The longest time one attempt's task may run, or empty for none. */
  public Optional<Duration> attemptTimeout() {
    return attemptTimeoutMillis < 0
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(attemptTimeoutMillis));
  }

  /** The deadline in milliseconds, or {@code -1} for none. */
  public long deadlineMillis() {
    return deadlineMillis;
  }

  /** The attempt timeout in milliseconds, or {@code -1} for none. */
  public long attemptTimeoutMillis() {
    return attemptTimeoutMillis;
  }

  /** The weight, lease lifetime and queue timeout of each attempt's request. */
  public ScheduleOptions schedule() {
    return schedule;
  }

  @Override
  public String toString() {
    return "ExecuteOptions{replaySafe="
        + replaySafe
        + ", retry="
        + retry.maxAttempts()
        + " attempts, deadline="
        + (deadlineMillis < 0 ? "none" : deadlineMillis + "ms")
        + ", attemptTimeout="
        + (attemptTimeoutMillis < 0 ? "none" : attemptTimeoutMillis + "ms")
        + ", schedule="
        + schedule
        + "}";
  }

  /**
   * Builds {@link ExecuteOptions}. Each setter checks its argument at once and throws {@link
   * IllegalArgumentException} or {@link NullPointerException} naming the field, the value and what
   * is allowed.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private boolean replaySafe;
    private AttemptClassifier classifier = AttemptClassifier.standard();
    private RetryPolicy retry = RetryPolicy.ofDefaults();
    private long deadlineMillis = Duration.ofMinutes(5).toMillis();
    private long attemptTimeoutMillis = Duration.ofSeconds(60).toMillis();
    private ScheduleOptions schedule = ScheduleOptions.defaults();

    private Builder() {}

    /**
     * Declares whether the operation may run more than once (the service is idempotent, or dedupes
     * by {@link ExecutionContext#operationId()}). Without it nothing is ever retried.
     *
     * @param replaySafe true to allow retries
     * @return this builder
     */
    public Builder replaySafe(boolean replaySafe) {
      this.replaySafe = replaySafe;
      return this;
    }

    /**
     * Sets how each attempt is judged.
     *
     * @param classifier the classifier
     * @return this builder
     */
    public Builder classifier(AttemptClassifier classifier) {
      this.classifier = Objects.requireNonNull(classifier, "classifier must not be null");
      return this;
    }

    /**
     * Sets how many attempts, how far apart, and which exceptions may be retried.
     *
     * @param retry the policy
     * @return this builder
     */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry must not be null");
      return this;
    }

    /**
     * Allows one attempt only.
     *
     * @return this builder
     */
    public Builder noRetry() {
      this.retry = NO_RETRY;
      return this;
    }

    /**
     * Sets the longest time from the call to the result, over every attempt and delay. When it
     * passes during an attempt or its wait in the queue, the call fails with {@link
     * ExecutionTimeoutException}, whose cause is the last attempt's failure, if one failed. A retry
     * whose delay (a throttle's retry-after included) would end at or after the deadline is not
     * waited for: the attempt before it is the last, and its own result or failure is the call's at
     * once.
     *
     * @param deadline at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder deadline(Duration deadline) {
      this.deadlineMillis = Limits.millis("deadline", deadline, 1);
      return this;
    }

    /**
     * Removes the overall deadline.
     *
     * @return this builder
     */
    public Builder noDeadline() {
      this.deadlineMillis = -1;
      return this;
    }

    /**
     * Sets the longest time one attempt's task may run, from its start.
     *
     * @param attemptTimeout at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder attemptTimeout(Duration attemptTimeout) {
      this.attemptTimeoutMillis = Limits.millis("attemptTimeout", attemptTimeout, 1);
      return this;
    }

    /**
     * Removes the attempt timeout.
     *
     * @return this builder
     */
    public Builder noAttemptTimeout() {
      this.attemptTimeoutMillis = -1;
      return this;
    }

    /**
     * Sets each attempt's weight, lease lifetime and queue timeout (measured for each attempt from
     * its own request).
     *
     * @param schedule the options of each attempt's request
     * @return this builder
     */
    public Builder schedule(ScheduleOptions schedule) {
      this.schedule = Objects.requireNonNull(schedule, "schedule must not be null");
      return this;
    }

    /** Returns the options. */
    public ExecuteOptions build() {
      return new ExecuteOptions(this);
    }
  }
}
