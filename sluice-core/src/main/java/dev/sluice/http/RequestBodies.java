/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which request bodies can be sent again unchanged: none, and the publishers of {@link
 * BodyPublishers} that re-read fixed content (strings, byte arrays, files, no body). Publishers of
 * streams, iterables and the application's own may give other bytes, or none, the second time.
 *
 * <p>The JDK's publisher classes are not public, so they are recognised by the classes of sample
 * publishers and, for files (which need a file to make), by name. Stateless and thread-safe.
 */
final class RequestBodies {
  private static final String FILE_PUBLISHER =
      "jdk.internal.net.http.RequestPublishers$FilePublisher";
  private static final Set<Class<?>> REPRODUCIBLE =
      Set.copyOf(
          List.of(
              BodyPublishers.noBody().getClass(),
              BodyPublishers.ofString("").getClass(),
              BodyPublishers.ofByteArray(new byte[0]).getClass(),
              BodyPublishers.ofByteArray(new byte[1], 0, 1).getClass()));

  private RequestBodies() {}

  /** Whether the request's body, if any, may be sent again. */
  static boolean reproducible(HttpRequest request) {
    Optional<BodyPublisher> body = request.bodyPublisher();
    if (body.isEmpty()) {
      return true;
    }
    Class<?> kind = body.get().getClass();
    return REPRODUCIBLE.contains(kind) || kind.getName().equals(FILE_PUBLISHER);
  }

  /** The name of the request body's kind, for error messages. */
  static String kind(HttpRequest request) {
    return request.bodyPublisher().map(p -> p.getClass().getName()).orElse("none");
  }
}
