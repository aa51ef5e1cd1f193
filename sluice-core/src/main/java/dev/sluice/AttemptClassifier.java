/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * Judges one attempt of a managed execution: maps what the task returned or threw to an {@link
 * AttemptOutcome}. It runs on the attempt's thread right after the task, while the attempt still
 * holds its lease, and must be quick and must not block.
 *
 * <p>A classifier that throws, or answers {@code null}, fails that one call (with the classifier's
 * exception, or a {@link SluiceException} naming the null answer); the attempt's lease is released
 * and counted as {@link AttemptOutcome#neutral() neutral}, and the limiter goes on serving other
 * calls.
 *
 * <pre>{@code
 * AttemptClassifier byStatus = (result, failure) -> {
 *   if (failure instanceof java.io.IOException) return AttemptOutcome.serviceFailure();
 *   if (failure != null) return AttemptOutcome.neutral();
 *   int status = ((Response) result).status();
 *   return status == 429 ? AttemptOutcome.throttle()
 *       : status >= 500 ? AttemptOutcome.serviceFailure() : AttemptOutcome.success();
 * };
 * }</pre>
 *
 * <p>Implementations must be thread-safe: attempts of many executions call them at once.
 */
@FunctionalInterface
public interface AttemptClassifier {
  /**
   * Judges one attempt.
   *
   * @param result what the task returned, or {@code null} if it threw (or returned null)
   * @param failure what the task threw, or {@code null} if it returned
   * @return the outcome, never {@code null}
   */
  AttemptOutcome classify(Object result, Throwable failure);

  /**
   * The default: a returned result is a success, a thrown exception is neutral. Nothing is ever
   * retried with it: unclassified work is never replayed.
   */
  static AttemptClassifier standard() {
    return (result, failure) ->
        failure == null ? AttemptOutcome.success() : AttemptOutcome.neutral();
  }

  /**
   * A returned result is a success; a thrown {@link Exception} is a service failure, worth another
   * attempt when the operation is replay-safe; a thrown {@link Error} is neutral.
   */
  static AttemptClassifier exceptionsAreServiceFailures() {
    return (result, failure) -> {
      if (failure == null) {
        return AttemptOutcome.success();
      }
      return failure instanceof Exception
          ? AttemptOutcome.serviceFailure()
          : AttemptOutcome.neutral();
    };
  }
}
