/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The shared circuit breaker of a pool, part of its {@link RecoveryPolicy}: when reported service
 * failures pass a rule, the circuit opens and nothing is admitted for a pause; then exactly one
 * admission, the probe, is let through (it spends budget like any other), and its outcome closes
 * the circuit or opens it again (with a doubled pause after a service failure).
 *
 * <p>Two rules: {@linkplain #consecutive() consecutive} service failures (default 5), or a
 * {@linkplain #percentage(double, int, Duration) percentage} of service failures among successes
 * and failures reported inside a sliding window, once the window holds enough samples. Throttles
 * and neutral outcomes are no evidence either way.
 *
 * <pre>{@code
 * BreakerPolicy breaker = BreakerPolicy.consecutive()
 *     .failureThreshold(5)                       // service failures in a row
 *     .initialPause(Duration.ofSeconds(30))      // first open pause
 *     .maxPause(Duration.ofMinutes(5))           // doubling stops here
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; equal settings are equal policies.
 *
 * @param rule which rule opens the circuit
 * @param failureThreshold for {@link Rule#CONSECUTIVE}: failures in a row that open it, else 0
 * @param failureRatio for {@link Rule#PERCENTAGE}: the share of failures that opens it, in (0, 1]
 * @param minimumSamples for {@link Rule#PERCENTAGE}: samples the window must hold first
 * @param windowMillis for {@link Rule#PERCENTAGE}: the sliding window, in milliseconds
 * @param initialPauseMillis the first open pause
 * @param maxPauseMillis the longest open pause
 * @param factor how the pause grows after each failed probe, 1 to 16
 * @param probeTimeoutMillis how long a probe may run before another replaces it
 */
public record BreakerPolicy(
    Rule rule,
    int failureThreshold,
    double failureRatio,
    int minimumSamples,
    long windowMillis,
    long initialPauseMillis,
    long maxPauseMillis,
    double factor,
    long probeTimeoutMillis) {

  /** Which rule opens the circuit. */
  public enum Rule {
    /** A number of service failures in a row; a success resets the count. */
    CONSECUTIVE,
    /** A share of service failures among the samples of a sliding window. */
    PERCENTAGE
  }

  /** Checks the components (the builder has checked them already, with friendlier names). */
  public BreakerPolicy {
    Objects.requireNonNull(rule, "rule");
    boolean consecutive = rule == Rule.CONSECUTIVE;
    if (consecutive ? failureThreshold < 1 : failureThreshold != 0) {
      throw new IllegalArgumentException(
          "breaker failureThreshold must be "
              + (consecutive ? "at least 1" : "0 with the percentage rule")
              + ", was "
              + failureThreshold);
    }
    if (consecutive
        ? failureRatio != 0 || minimumSamples != 0 || windowMillis != 0
        : !(failureRatio > 0 && failureRatio <= 1) || minimumSamples < 1 || windowMillis < 1) {
      throw new IllegalArgumentException(
          "breaker failureRatio, minimumSamples and windowMillis must be (0, 1], at least 1 and"
              + " at least 1 with the percentage rule and 0 with the consecutive rule, were "
              + failureRatio
              + ", "
              + minimumSamples
              + ", "
              + windowMillis);
    }
    Limits.millis("breaker initialPause", Duration.ofMillis(initialPauseMillis), 1);
    Limits.millis("breaker maxPause", Duration.ofMillis(maxPauseMillis), initialPauseMillis);
    Limits.factor("breaker factor", factor);
    Limits.millis("breaker probeTimeout", Duration.ofMillis(probeTimeoutMillis), 1);
  }

  /** A builder for the consecutive-failure rule, threshold 5, with the default pauses. */
  public static Builder consecutive() {
    return new Builder(Rule.CONSECUTIVE);
  }

  /**
   * A builder for the percentage rule, with the default pauses.
   *
   * @param failureRatio the share of service failures that opens the circuit, in (0, 1]
   * @param minimumSamples the samples the window must hold before it can open, at least 1
   * @param window the sliding window, 1 ms to 3650 days
   * @return the builder
   */
  public static Builder percentage(double failureRatio, int minimumSamples, Duration window) {
    Builder b = new Builder(Rule.PERCENTAGE);
    if (!(failureRatio > 0 && failureRatio <= 1)) {
      throw new IllegalArgumentException(
          "breaker failureRatio must be in (0, 1], was " + failureRatio);
    }
    if (minimumSamples < 1) {
      throw new IllegalArgumentException(
          "breaker minimumSamples must be at least 1 (allowed 1.."
              + Integer.MAX_VALUE
              + "), was "
              + minimumSamples);
    }
    b.failureRatio = failureRatio;
    b.minimumSamples = minimumSamples;
    b.windowMillis = Limits.millis("breaker window", window, 1);
    b.failureThreshold = 0;
    return b;
  }

  /** The open pause after {@code step} failed probes: initial · factor^step, capped. */
  public long pauseMillis(int step) {
    double pause = initialPauseMillis * Math.pow(factor, step);
    return pause >= maxPauseMillis ? maxPauseMillis : (long) Math.ceil(pause);
  }

  /** The normalized text of this policy, part of the pool's normalized configuration. */
  String normalizedForm() {
    String ruleText =
        rule == Rule.CONSECUTIVE
            ? "consecutive:" + failureThreshold
            : "percentage:" + failureRatio + ":" + minimumSamples + ":" + windowMillis;
    return ruleText
        + ":"
        + initialPauseMillis
        + ":"
        + maxPauseMillis
        + ":"
        + factor
        + ":"
        + probeTimeoutMillis;
  }

  /** Reads {@link #normalizedForm()}; throws {@link IllegalArgumentException} if malformed. */
  static BreakerPolicy parse(String text) {
    String[] p = text.split(":", -1);
    try {
      Builder b;
      int i;
      if (p[0].equals("consecutive") && p.length == 6) {
        b = consecutive().failureThreshold(Integer.parseInt(p[1]));
        i = 2;
      } else if (p[0].equals("percentage") && p.length == 8) {
        b =
            percentage(
                Double.parseDouble(p[1]),
                Integer.parseInt(p[2]),
                Duration.ofMillis(Long.parseLong(p[3])));
        i = 4;
      } else {
        throw new IllegalArgumentException("not a normalized breaker policy: " + text);
      }
      return b.initialPause(Duration.ofMillis(Long.parseLong(p[i])))
          .maxPause(Duration.ofMillis(Long.parseLong(p[i + 1])))
          .factor(Double.parseDouble(p[i + 2]))
          .probeTimeout(Duration.ofMillis(Long.parseLong(p[i + 3])))
          .build();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a normalized breaker policy: " + text, e);
    }
  }

  /**
   * Builds a {@link BreakerPolicy}; each setter checks its argument at once and throws {@link
   * IllegalArgumentException} naming the field, the value and the allowed range.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private final Rule rule;
    private int failureThreshold = 5;
    private double failureRatio;
    private int minimumSamples;
    private long windowMillis;
    private long initialPauseMillis = 30_000;
    private long maxPauseMillis = 300_000;
    private double factor = 2;
    private long probeTimeoutMillis = 60_000;

    private Builder(Rule rule) {
      this.rule = rule;
    }

    /**
     * Sets the service failures in a row that open the circuit (consecutive rule only).
     *
     * @param threshold at least 1
     * @return this builder
     */
    public Builder failureThreshold(int threshold) {
      if (rule != Rule.CONSECUTIVE) {
        throw new IllegalArgumentException(
            "breaker failureThreshold belongs to the consecutive rule, not the "
                + rule.name().toLowerCase(Locale.ROOT)
                + " rule (was "
                + threshold
                + ")");
      }
      if (threshold < 1) {
        throw new IllegalArgumentException(
            "breaker failureThreshold must be at least 1 (allowed 1.."
                + Integer.MAX_VALUE
                + "), was "
                + threshold);
      }
      this.failureThreshold = threshold;
      return this;
    }

    /**
     * Sets the first open pause (default 30 s).
     *
     * @param pause 1 ms to 3650 days
     * @return this builder
     */
    public Builder initialPause(Duration pause) {
      this.initialPauseMillis = Limits.millis("breaker initialPause", pause, 1);
      return this;
    }

    /**
     * Sets the longest open pause (default 5 min); {@link #build()} checks it is at least the
     * initial pause.
     *
     * @param pause 1 ms to 3650 days
     * @return this builder
     */
    public Builder maxPause(Duration pause) {
      this.maxPauseMillis = Limits.millis("breaker maxPause", pause, 1);
      return this;
    }

    /**
     * Sets how the pause grows after each failed probe (default 2).
     *
     * @param factor 1 to 16
     * @return this builder
     */
    public Builder factor(double factor) {
      this.factor = Limits.factor("breaker factor", factor);
      return this;
    }

    /**
     * Sets how long a probe may run before another admission replaces it (default 60 s); a replaced
     * probe's outcome is not counted.
     *
     * @param timeout 1 ms to 3650 days
     * @return this builder
     */
    public Builder probeTimeout(Duration timeout) {
      this.probeTimeoutMillis = Limits.millis("breaker probeTimeout", timeout, 1);
      return this;
    }

    /**
     * Returns the policy.
     *
     * @throws IllegalArgumentException if the longest pause is shorter than the first
     */
    public BreakerPolicy build() {
      if (maxPauseMillis < initialPauseMillis) {
        throw new IllegalArgumentException(
            "breaker maxPause must be at least initialPause ("
                + initialPauseMillis
                + " ms), was "
                + maxPauseMillis
                + " ms");
      }
      return new BreakerPolicy(
          rule,
          failureThreshold,
          failureRatio,
          minimumSamples,
          windowMillis,
          initialPauseMillis,
          maxPauseMillis,
          factor,
          probeTimeoutMillis);
    }
  }
}
