/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench;

import dev.failsafe.RetryPolicy;
import dev.sluice.AttemptClassifier;
import dev.sluice.ExecuteOptions;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

/**
 * The one retry policy every retry benchmark gives each library: 3 attempts, 500 ms doubling to 10
 * s, ±20 % jitter, so the rows differ only by the library.
 */
final class RetryPolicies {
  private RetryPolicies() {}

  /** Resilience4j's {@code Retry} with the policy. */
  static Retry resilience4j() {
    return Retry.of(
        "bench",
        RetryConfig.custom()
            .maxAttempts(3)
            .intervalFunction(
                IntervalFunction.ofExponentialRandomBackoff(
                    Duration.ofMillis(500), 2, 0.2, Duration.ofSeconds(10)))
            .build());
  }

  /** Failsafe's {@code RetryPolicy} with the policy. */
  static RetryPolicy<Integer> failsafe() {
    return RetryPolicy.<Integer>builder()
        .withMaxAttempts(3)
        .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(10), 2)
        .withJitter(0.2)
        .build();
  }

  /** Sluice's execute options with the policy (its defaults), replay-safe. */
  static ExecuteOptions sluice() {
    return ExecuteOptions.builder()
        .replaySafe(true)
        .classifier(AttemptClassifier.exceptionsAreServiceFailures())
        .retry(dev.sluice.RetryPolicy.ofDefaults())
        .build();
  }
}
