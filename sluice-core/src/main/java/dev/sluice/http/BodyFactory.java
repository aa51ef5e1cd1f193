/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.net.http.HttpRequest;

/**
 * Makes the request body of each attempt, for bodies that cannot be sent twice (a stream, a
 * publisher of the application's own). With one, {@link HttpLimiter} may retry such a request; the
 * request's own publisher is then not used.
 *
 * <pre>{@code
 * BodyFactory upload = attempt -> BodyPublishers.ofInputStream(() -> open(file));
 * http.send(request, upload, BodyHandlers.ofString(), options);
 * }</pre>
 *
 * <p>Called on the attempt's thread once per attempt, after the pool admitted it; it must be
 * thread-safe if one factory serves several calls at once. A factory that throws fails the call
 * with its exception, which is never retried.
 */
@FunctionalInterface
public interface BodyFactory {
  /**
   * Makes the body of one attempt.
   *
   * @param attempt the attempt, 1 for the first
   * @return the body, never null
   * @throws Exception if the body cannot be made
   */
  HttpRequest.BodyPublisher body(int attempt) throws Exception;
}
