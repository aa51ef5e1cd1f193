/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a managed execution tries again, and after how long. Stateless.
 *
 * <p>Another attempt follows only when every condition holds: the caller declared the operation
 * replay-safe; the classifier judged the attempt transient (throttle or service failure) and did
 * not forbid a retry; the policy has attempts left; for an attempt that threw, the policy's {@code
 * retryOn} accepts the exception; and the limiter is not closing.
 */
final class RetryRule {
  /** The longest delay: ten years, like every other duration setting, far from overflow. */
  private static final Duration LONGEST = Duration.ofDays(3650);

  private RetryRule() {}

  static boolean allows(ExecuteOptions options, AttemptContext<?> a, boolean closing) {
    RetryPolicy policy = options.retry();
    return options.replaySafe()
        && a.outcome.allowsRetry()
        && a.attempt() < policy.maxAttempts()
        && (a.failure == null || policy.retryOn().test(a.failure))
        && !closing;
  }

  /**
   * The delay before the next attempt: the policy's jittered backoff, raised to a throttle's
   * retry-after, which is a floor even beyond the policy's largest delay.
   */
  static long delayNanos(RetryPolicy policy, AttemptContext<?> a) {
    long millis =
        policy.delayAfter(a.attempt(), ThreadLocalRandom.current().nextDouble()).toMillis();
    if (a.outcome instanceof AttemptOutcome.Throttle t && t.retryAfter().isPresent()) {
      Duration floor = t.retryAfter().get();
      millis =
          Math.max(millis, floor.compareTo(LONGEST) > 0 ? LONGEST.toMillis() : floor.toMillis());
    }
    return millis * 1_000_000L;
  }
}
