/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.AttemptOutcome;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The built-in judgement of HTTP attempts that {@link HttpLimiter} uses: what a response status or
 * a transport failure says about the service.
 *
 * <table>
 *   <caption>Outcomes</caption>
 *   <tr><th>Attempt</th><th>Outcome</th></tr>
 *   <tr><td>2xx</td><td>success</td></tr>
 *   <tr><td>429, 503</td><td>throttle, with the {@code Retry-After} if valid ({@link
 *       RetryAfter})</td></tr>
 *   <tr><td>500, 502, 504</td><td>service failure</td></tr>
 *   <tr><td>any other status</td><td>neutral</td></tr>
 *   <tr><td>a transport failure: an {@link IOException} anywhere in the cause chain (connect
 *       refused or timed out, connection reset or closed early, request timeout)</td><td>service
 *       failure</td></tr>
 *   <tr><td>anything else (a cancellation, a failure of the application's own body handler)</td>
 *       <td>neutral</td></tr>
 * </table>
 *
 * <p>{@link HttpLimiter} also judges the body after the status: a 2xx counts as a success only once
 * its body was read to the end; a body its reader closed early makes it neutral (an unfinished body
 * is no evidence of recovery), and one that failed makes it a service failure. A throttle or an
 * error status stays what the headers said, whatever the body did, and so does a throttle whose
 * body failed before the response could be delivered.
 *
 * <p>Stateless and thread-safe; nothing blocks.
 */
public final class HttpClassifier {
  private HttpClassifier() {}

  /**
   * Judges a response by its status.
   *
   * @param response the response
   * @param now the current time, for a {@code Retry-After} date
   * @return the outcome
   */
  public static AttemptOutcome ofResponse(HttpResponse<?> response, Instant now) {
    Objects.requireNonNull(response, "response");
    Objects.requireNonNull(now, "now");
    return ofStatus(response.statusCode(), response.headers(), () -> now);
  }

  /** Like {@link #ofResponse}, reading the time only for a {@code Retry-After} date. */
  static AttemptOutcome ofStatus(int status, HttpHeaders headers, Supplier<Instant> now) {
    return switch (status) {
      case 429, 503 ->
          RetryAfter.of(headers, now)
              .map(AttemptOutcome::throttle)
              .orElseGet(AttemptOutcome::throttle);
      case 500, 502, 504 -> AttemptOutcome.serviceFailure();
      default ->
          status >= 200 && status < 300 ? AttemptOutcome.success() : AttemptOutcome.neutral();
    };
  }

  /**
   * The outcome of a delivered response once its body ended: a success stands only for a body read
   * to its end; any other status outcome stands whatever the body did.
   */
  static AttemptOutcome afterBody(AttemptOutcome byStatus, BodyEnd end) {
    if (!(byStatus instanceof AttemptOutcome.Success)) {
      return byStatus;
    }
    if (end instanceof BodyEnd.Failed f) {
      return ofFailure(f.failure());
    }
    return end instanceof BodyEnd.Abandoned ? AttemptOutcome.neutral() : byStatus;
  }

  /**
   * The outcome of an attempt whose send failed, after its status and headers came if {@code
   * byStatus} is not null: a throttle's status, with its retry-after, outlives a failure of the
   * connection while its body was read; otherwise the failure judges.
   */
  static AttemptOutcome ofFailure(Throwable failure, AttemptOutcome byStatus) {
    AttemptOutcome byFailure = ofFailure(failure);
    return byFailure instanceof AttemptOutcome.ServiceFailure
            && byStatus instanceof AttemptOutcome.Throttle
        ? byStatus
        : byFailure;
  }

  /**
   * Judges a failed attempt: a transport failure is a service failure, anything else neutral.
   *
   * @param failure what the attempt failed with
   * @return the outcome
   */
  public static AttemptOutcome ofFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure) {
        return AttemptOutcome.neutral();
      }
      if (t instanceof IOException) {
        return AttemptOutcome.serviceFailure();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return AttemptOutcome.neutral();
  }
}
