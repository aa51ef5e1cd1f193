/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a pool recovers from a provider that pushes back, shared by every process on the pool and
 * part of its {@link LimiterConfig} (so every client must supply the same): the shared cooldown
 * after a throttle, and an optional {@link BreakerPolicy circuit breaker}.
 *
 * <p>A throttle reported for an attempt pauses every admission of the pool for {@code cooldownBase
 * · cooldownFactor^(step−1)}, capped at {@code cooldownMax}, where the step grows by one for each
 * throttle of an attempt admitted after the previous cooldown began (so one burst of throttles
 * escalates once). A provider's retry-after is a floor, even beyond the cap. Only a success of an
 * attempt admitted after the cooldown resets the step.
 *
 * <pre>{@code
 * RecoveryPolicy recovery = RecoveryPolicy.builder()
 *     .cooldown(Duration.ofMillis(500), 2, Duration.ofSeconds(10))   // the defaults
 *     .breaker(BreakerPolicy.consecutive().build())                  // off unless set
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param cooldownBaseMillis the first cooldown pause, default 500 ms
 * @param cooldownFactor the growth per escalation, 1 to 16, default 2
 * @param cooldownMaxMillis the longest computed pause, default 10 s
 * @param breaker the circuit breaker, or {@code null} for none (the default)
 */
public record RecoveryPolicy(
    long cooldownBaseMillis, double cooldownFactor, long cooldownMaxMillis, BreakerPolicy breaker) {
  private static final RecoveryPolicy DEFAULTS = new RecoveryPolicy(500, 2, 10_000, null);

  /** Checks the components, naming the field, the value and the allowed range. */
  public RecoveryPolicy {
    Limits.millis("cooldown base", Duration.ofMillis(cooldownBaseMillis), 1);
    Limits.factor("cooldown factor", cooldownFactor);
    Limits.millis("cooldown max", Duration.ofMillis(cooldownMaxMillis), cooldownBaseMillis);
  }

  /** The defaults: cooldown 500 ms doubling to 10 s, no breaker. */
  public static RecoveryPolicy defaults() {
    return DEFAULTS;
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The circuit breaker, or empty when the pool has none. */
  public Optional<BreakerPolicy> breakerPolicy() {
    return Optional.ofNullable(breaker);
  }

  /** Whether this is {@link #defaults()}. */
  public boolean isDefault() {
    return equals(DEFAULTS);
  }

  /** The cooldown pause at {@code step} (from 1): base · factor^(step−1), capped. */
  public long cooldownMillis(int step) {
    double pause = cooldownBaseMillis * Math.pow(cooldownFactor, Math.max(0, step - 1));
    return pause >= cooldownMaxMillis ? cooldownMaxMillis : (long) Math.ceil(pause);
  }

  /** The normalized text of this policy, part of the pool's normalized configuration. */
  String normalizedForm() {
    return cooldownBaseMillis
        + ","
        + cooldownFactor
        + ","
        + cooldownMaxMillis
        + ","
        + (breaker == null ? "off" : breaker.normalizedForm());
  }

  /** Reads {@link #normalizedForm()}; throws {@link IllegalArgumentException} if malformed. */
  static RecoveryPolicy parse(String text) {
    String[] p = text.split(",", -1);
    if (p.length != 4) {
      throw new IllegalArgumentException("not a normalized recovery policy: " + text);
    }
    try {
      Builder b =
          builder()
              .cooldown(
                  Duration.ofMillis(Long.parseLong(p[0])),
                  Double.parseDouble(p[1]),
                  Duration.ofMillis(Long.parseLong(p[2])));
      if (!p[3].equals("off")) {
        b.breaker(BreakerPolicy.parse(p[3]));
      }
      return b.build();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a normalized recovery policy: " + text, e);
    }
  }

  /**
   * Builds a {@link RecoveryPolicy}; each setter checks its arguments at once and throws {@link
   * IllegalArgumentException} naming the field, the value and the allowed range.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private long base = 500;
    private double factor = 2;
    private long max = 10_000;
    private BreakerPolicy breaker;

    private Builder() {}

    /**
     * Sets the shared cooldown after a throttle.
     *
     * @param base the first pause, 1 ms to 3650 days
     * @param factor the growth per escalation, 1 to 16
     * @param max the longest computed pause, at least {@code base}
     * @return this builder
     */
    public Builder cooldown(Duration base, double factor, Duration max) {
      long b = Limits.millis("cooldown base", base, 1);
      double f = Limits.factor("cooldown factor", factor);
      long m = Limits.millis("cooldown max", max, 1);
      if (m < b) {
        throw new IllegalArgumentException(
            "cooldown max must be at least cooldown base (" + b + " ms), was " + m + " ms");
      }
      this.base = b;
      this.factor = f;
      this.max = m;
      return this;
    }

    /**
     * Enables the circuit breaker.
     *
     * @param breaker the breaker
     * @return this builder
     */
    public Builder breaker(BreakerPolicy breaker) {
      this.breaker = Objects.requireNonNull(breaker, "breaker");
      return this;
    }

    /** Returns the policy. */
    public RecoveryPolicy build() {
      return new RecoveryPolicy(base, factor, max, breaker);
    }
  }
}
