/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Optional;

/**
 * Per-request settings: the request's weight, its lease lifetime and how long it may wait.
 *
 * <pre>{@code
 * ScheduleOptions options = ScheduleOptions.builder()
 *     .weight(2)                                 // concurrency units and reservoir tokens
 *     .queueTimeout(Duration.ofSeconds(5))       // from submission to callback start
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ScheduleOptions {
  private static final long POOL_DEFAULT = -1;
  private static final long NONE = -2;
  private static final ScheduleOptions DEFAULTS = builder().build();

  private final long weight;
  private final long expirationMillis;
  private final long queueTimeoutMillis;
  private final boolean circuitFailFast;

  private ScheduleOptions(Builder b) {
    this.weight = b.weight;
    this.expirationMillis = b.expirationMillis;
    this.queueTimeoutMillis = b.queueTimeoutMillis;
    this.circuitFailFast = b.circuitFailFast;
  }

  /** Returns the defaults: weight 1, the pool's lease lifetime, no queue timeout. */
  public static ScheduleOptions defaults() {
    return DEFAULTS;
  }

  /** Returns a builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The weight: concurrency units held and reservoir tokens spent. */
  public long weight() {
    return weight;
  }

  /**
   * The lease lifetime chosen for this request: empty when it uses the pool's default or has none;
   * see {@link #usesPoolExpiration()} and {@link #hasNoExpiration()}.
   */
  public Optional<Duration> expiration() {
    return expirationMillis >= 0
        ? Optional.of(Duration.ofMillis(expirationMillis))
        : Optional.empty();
  }

  /** Whether the lease lifetime is the pool's default. */
  public boolean usesPoolExpiration() {
    return expirationMillis == POOL_DEFAULT;
  }

  /** Whether this request's lease never expires, whatever the pool's default. */
  public boolean hasNoExpiration() {
    return expirationMillis == NONE;
  }

  /** The longest time from submission to callback start, or empty to wait as long as it takes. */
  public Optional<Duration> queueTimeout() {
    return queueTimeoutMillis < 0
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(queueTimeoutMillis));
  }

  /**
   * Resolves the lease lifetime in milliseconds against a pool configuration; {@code -1} for none.
   *
   * @param config the pool's configuration
   * @return the lifetime in milliseconds, or {@code -1}
   */
  public long leaseLifetimeMillis(LimiterConfig config) {
    if (expirationMillis == POOL_DEFAULT) {
      return config.expirationMillisRaw();
    }
    return expirationMillis == NONE ? -1 : expirationMillis;
  }

  /**
   * Whether the request fails at once with {@link CircuitOpenException} while the pool's circuit
   * breaker is open or its probe runs, instead of waiting (the default).
   */
  public boolean circuitFailFast() {
    return circuitFailFast;
  }

  /** The queue timeout in milliseconds, or {@code -1} for none. */
  public long queueTimeoutMillis() {
    return queueTimeoutMillis;
  }

  @Override
  public String toString() {
    return "ScheduleOptions{weight="
        + weight
        + ", expiration="
        + (usesPoolExpiration()
            ? "pool default"
            : hasNoExpiration() ? "none" : expirationMillis + "ms")
        + ", queueTimeout="
        + (queueTimeoutMillis < 0 ? "none" : queueTimeoutMillis + "ms")
        + (circuitFailFast ? ", circuitFailFast" : "")
        + "}";
  }

  /**
   * Builds {@link ScheduleOptions}. Each setter checks its argument at once and throws {@link
   * IllegalArgumentException} naming the field, the value and the allowed range.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private long weight = 1;
    private long expirationMillis = POOL_DEFAULT;
    private long queueTimeoutMillis = -1;
    private boolean circuitFailFast;

    private Builder() {}

    /**
     * Makes the request fail at once with {@link CircuitOpenException}, carrying when to retry,
     * while the pool's circuit breaker is open or its probe runs; by default it waits.
     *
     * @param failFast whether to fail fast
     * @return this builder
     */
    public Builder circuitFailFast(boolean failFast) {
      this.circuitFailFast = failFast;
      return this;
    }

    /**
     * Sets the weight. It must also be at most the pool's {@code maxConcurrent} when that is set;
     * the limiter checks that when the request is made.
     *
     * @param weight at least 1
     * @return this builder
     */
    public Builder weight(long weight) {
      this.weight = Limits.positive("weight", weight);
      return this;
    }

    /**
     * Overrides the pool's default lease lifetime for this request.
     *
     * @param expiration at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder expiration(Duration expiration) {
      this.expirationMillis = Limits.millis("expiration", expiration, 1);
      return this;
    }

    /**
     * Gives this request a lease that never expires, whatever the pool's default.
     *
     * @return this builder
     */
    public Builder noExpiration() {
      this.expirationMillis = NONE;
      return this;
    }

    /**
     * Sets the longest time from submission to callback start. When it passes the request is
     * withdrawn and fails with {@link QueueTimeoutException}; a running callback is never timed
     * out.
     *
     * @param queueTimeout at least 1 ms, at most 3650 days
     * @return this builder
     */
    public Builder queueTimeout(Duration queueTimeout) {
      this.queueTimeoutMillis = Limits.millis("queueTimeout", queueTimeout, 1);
      return this;
    }

    /** Returns the options. */
    public ScheduleOptions build() {
      return new ScheduleOptions(this);
    }
  }
}
