/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * How often and how far apart a failed operation is tried again: bounded attempts with exponential
 * backoff and jitter, and a predicate that says which failures are worth another attempt. Shared by
 * managed execution and workflow steps.
 *
 * <p>The delay after failed attempt {@code n} (1-based) is {@code min(maxDelay, baseDelay ·
 * factor^(n-1))}, then jittered to {@code delay · (1 + jitter · (2r − 1))} for a uniform {@code r}
 * in [0, 1) and clamped to [0, maxDelay].
 *
 * @param maxAttempts total attempts including the first, at least 1
 * @param baseDelay the delay after the first failure, at least 1 ms
 * @param maxDelay the largest delay, at least {@code baseDelay}
 * @param factor the growth per attempt, 1 to 16
 * @param jitter the random spread as a fraction of the delay, 0 to 1
 * @param retryOn which failures may be tried again
 */
public record RetryPolicy(
    int maxAttempts,
    Duration baseDelay,
    Duration maxDelay,
    double factor,
    double jitter,
    Predicate<Throwable> retryOn) {

  private static final RetryPolicy DEFAULTS = builder().build();

  /** Checks every component, naming the field, the value and the allowed range. */
  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException(
          "maxAttempts must be at least 1 (allowed 1.."
              + Integer.MAX_VALUE
              + "), was "
              + maxAttempts);
    }
    Limits.millis("baseDelay", baseDelay, 1);
    Limits.millis("maxDelay", maxDelay, 1);
    if (maxDelay.compareTo(baseDelay) < 0) {
      throw new IllegalArgumentException(
          "maxDelay must be at least baseDelay (" + baseDelay + "), was " + maxDelay);
    }
    if (!(factor >= 1 && factor <= 16)) {
      throw new IllegalArgumentException("factor must be between 1 and 16, was " + factor);
    }
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException("jitter must be between 0 and 1, was " + jitter);
    }
    Objects.requireNonNull(retryOn, "retryOn");
  }

  /**
   * Returns the defaults: 3 attempts, 500 ms doubling to at most 10 s, ±20 % jitter, every {@link
   * Exception} retried.
   */
  public static RetryPolicy ofDefaults() {
    return DEFAULTS;
  }

  /** Returns a builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the delay before the attempt after failed attempt {@code failedAttempt}.
   *
   * @param failedAttempt the attempt that failed, 1-based
   * @param random a uniform number in [0, 1), the jitter's source
   * @return the delay, between zero and {@link #maxDelay()}
   */
  public Duration delayAfter(int failedAttempt, double random) {
    if (failedAttempt < 1) {
      throw new IllegalArgumentException("failedAttempt must be at least 1, was " + failedAttempt);
    }
    if (!(random >= 0 && random < 1)) {
      throw new IllegalArgumentException("random must be in [0, 1), was " + random);
    }
    double cap = maxDelay.toMillis();
    double exponential =
        Math.min(cap, Math.ceil(baseDelay.toMillis() * Math.pow(factor, failedAttempt - 1)));
    double jittered = Math.round(exponential * (1 + jitter * (2 * random - 1)));
    return Duration.ofMillis((long) Math.max(0, Math.min(cap, jittered)));
  }

  /**
   * Whether another attempt may follow a failure.
   *
   * @param failedAttempt the attempt that failed, 1-based
   * @param failure what it failed with
   * @return true if attempts remain and the failure is one to retry
   */
  public boolean allowsRetry(int failedAttempt, Throwable failure) {
    return failedAttempt < maxAttempts && retryOn.test(failure);
  }

  /** Builds a {@link RetryPolicy}; {@link #build()} checks the settings. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = 3;
    private Duration baseDelay = Duration.ofMillis(500);
    private Duration maxDelay = Duration.ofSeconds(10);
    private double factor = 2;
    private double jitter = 0.2;
    private Predicate<Throwable> retryOn = t -> t instanceof Exception;

    private Builder() {}

    /**
     * Sets the total number of attempts.
     *
     * @param maxAttempts at least 1
     * @return this builder
     */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * Sets the first and the largest delay.
     *
     * @param baseDelay at least 1 ms
     * @param maxDelay at least {@code baseDelay}
     * @return this builder
     */
    public Builder delays(Duration baseDelay, Duration maxDelay) {
      this.baseDelay = baseDelay;
      this.maxDelay = maxDelay;
      return this;
    }

    /**
     * Sets the growth per attempt.
     *
     * @param factor 1 to 16
     * @return this builder
     */
    public Builder factor(double factor) {
      this.factor = factor;
      return this;
    }

    /**
     * Sets the random spread.
     *
     * @param jitter 0 to 1
     * @return this builder
     */
    public Builder jitter(double jitter) {
      this.jitter = jitter;
      return this;
    }

    /**
     * Sets which failures may be retried.
     *
     * @param retryOn the predicate
     * @return this builder
     */
    public Builder retryOn(Predicate<Throwable> retryOn) {
      this.retryOn = Objects.requireNonNull(retryOn, "retryOn");
      return this;
    }

    /** Returns the policy. */
    public RetryPolicy build() {
      return new RetryPolicy(maxAttempts, baseDelay, maxDelay, factor, jitter, retryOn);
    }
  }
}
