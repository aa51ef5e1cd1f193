/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.ExecuteOptions;

/**
 * The execute options of an HTTP call: the caller's, judged by the call ({@link HttpCall#judge},
 * after {@link HttpClassifier}).
 */
final class HttpOptions {
  private HttpOptions() {}

  static ExecuteOptions judgedBy(HttpCall<?> call) {
    ExecuteOptions o = call.options();
    ExecuteOptions.Builder b =
        ExecuteOptions.builder()
            .replaySafe(o.replaySafe())
            .retry(o.retry())
            .schedule(o.schedule())
            .classifier(call::judge);
    o.deadline().ifPresentOrElse(b::deadline, b::noDeadline);
    o.attemptTimeout().ifPresentOrElse(b::attemptTimeout, b::noAttemptTimeout);
    return b.build();
  }
}
