/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one attempt of a managed execution meant, as an {@link AttemptClassifier} judges it: the
 * service worked, the service asked to slow down, the service failed, or the attempt says nothing
 * about the service. It decides whether the operation may be tried again (only after a transient
 * outcome, {@link Throttle} or {@link ServiceFailure}, that does not forbid it) and is the evidence
 * a shared cooldown and circuit breaker count.
 *
 * <p>Values are immutable records.
 */
public sealed interface AttemptOutcome {

  /** The service did what was asked. */
  static AttemptOutcome success() {
    return Success.INSTANCE;
  }

  /**
   * The attempt says nothing about the service's health (a bad request, a not-found, a failure of
   * the caller's own code): never retried and never counted by a breaker.
   */
  static AttemptOutcome neutral() {
    return Neutral.INSTANCE;
  }

  /** The service asked to slow down, without saying for how long. */
  static AttemptOutcome throttle() {
    return new Throttle(Optional.empty(), true);
  }

  /**
   * The service asked to slow down for at least {@code retryAfter}.
   *
   * @param retryAfter zero or more; the next attempt waits at least this long, even beyond the
   *     policy's largest delay
   * @return the outcome
   */
  static AttemptOutcome throttle(Duration retryAfter) {
    return new Throttle(Optional.of(retryAfter), true);
  }

  /** The service failed (an error status, a reset connection, a timeout): worth another try. */
  static AttemptOutcome serviceFailure() {
    return new ServiceFailure(true);
  }

  /** Whether this outcome is transient: a throttle or a service failure. */
  default boolean isTransient() {
    return false;
  }

  /** Whether this outcome allows another attempt: transient and not {@link #withoutRetry()}. */
  default boolean allowsRetry() {
    return false;
  }

  /**
   * This outcome, recorded as it is, but forbidding another attempt: for a failure that is the
   * service's but must not be replayed (the request may have taken effect).
   */
  default AttemptOutcome withoutRetry() {
    return this;
  }

  /** See {@link #success()}. */
  enum Success implements AttemptOutcome {
    /** The one value. */
    INSTANCE
  }

  /** See {@link #neutral()}. */
  enum Neutral implements AttemptOutcome {
    /** The one value. */
    INSTANCE
  }

  /**
   * The service asked to slow down.
   *
   * @param retryAfter how long the service asked to wait, if it said; zero or more
   * @param retryAllowed whether another attempt may follow
   */
  record Throttle(Optional<Duration> retryAfter, boolean retryAllowed) implements AttemptOutcome {
    /** Checks the components. */
    public Throttle {
      Objects.requireNonNull(retryAfter, "retryAfter");
      retryAfter.ifPresent(
          d -> {
            if (d.isNegative()) {
              throw new IllegalArgumentException("retryAfter must be zero or more, was " + d);
            }
          });
    }

    @Override
    public boolean isTransient() {
      return true;
    }

    @Override
    public boolean allowsRetry() {
      return retryAllowed;
    }

    @Override
    public AttemptOutcome withoutRetry() {
      return new Throttle(retryAfter, false);
    }
  }

  /**
   * The service failed.
   *
   * @param retryAllowed whether another attempt may follow
   */
  record ServiceFailure(boolean retryAllowed) implements AttemptOutcome {
    @Override
    public boolean isTransient() {
      return true;
    }

    @Override
    public boolean allowsRetry() {
      return retryAllowed;
    }

    @Override
    public AttemptOutcome withoutRetry() {
      return new ServiceFailure(false);
    }
  }
}
