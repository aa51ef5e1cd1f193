/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.AttemptClassifier;
import dev.sluice.ExecuteOptions;
import dev.sluice.http.HttpCall.Attempt;

/** The execute options of an HTTP call: the caller's, judged by {@link HttpClassifier}. */
final class HttpOptions {
  /** Judges an attempt by what its task left, or by its failure. */
  private static final AttemptClassifier BY_STATUS =
      (result, failure) ->
          result instanceof Attempt<?> a ? a.outcome() : HttpClassifier.ofFailure(failure);

  private HttpOptions() {}

  static ExecuteOptions judgedByStatus(ExecuteOptions o) {
    ExecuteOptions.Builder b =
        ExecuteOptions.builder()
            .replaySafe(o.replaySafe())
            .retry(o.retry())
            .schedule(o.schedule())
            .classifier(BY_STATUS);
    o.deadline().ifPresentOrElse(b::deadline, b::noDeadline);
    o.attemptTimeout().ifPresentOrElse(b::attemptTimeout, b::noAttemptTimeout);
    return b.build();
  }
}
