/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AttemptOutcome;

/**
 * What a task that must know before it ends whether another attempt will follow asks its attempt:
 * the HTTP helper hands a response to the application only when no attempt follows, and throws it
 * away otherwise. The answer is the execution's own decision made early: the same retry policy,
 * attempts left, replay safety, the same jittered delay and the same clock reading against the
 * deadline, so the execution then retries exactly when the forecast said it would (closing and the
 * deadline passing meanwhile aside). Not exported: the module's packages use it, applications do
 * not.
 *
 * <p>Called by the attempt's task, on its thread, at most once per attempt.
 */
public interface RetryForecast {
  /**
   * Whether another attempt follows this one if it ends with {@code outcome}.
   *
   * @param outcome the outcome the task will end with
   * @return whether the execution will try again
   */
  boolean retryFollows(AttemptOutcome outcome);
}
