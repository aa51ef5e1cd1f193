/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Which request bodies can be sent again unchanged: none, and the publishers of {@link
 * BodyPublishers} that re-read fixed content (strings, byte arrays, files, no body). Publishers of
 * streams, iterables and the application's own may give other bytes, or none, the second time.
 *
 * <p>The JDK's publisher classes are not public, so they are recognised by the classes of sample
 * publishers and, for files (which need a file to make), by name.
 *
 * <p>{@code BodyPublishers.ofByteArray} keeps the caller's array and copies it anew at each send,
 * so a call snapshots such a body when it is made ({@link #snapshot}): every attempt sends the
 * bytes the array held then, whatever the caller writes into it later. A file is read at each send,
 * as the JDK does. Stateless and thread-safe.
 */
final class RequestBodies {
  private static final String FILE_PUBLISHER =
      "jdk.internal.net.http.RequestPublishers$FilePublisher";
  private static final Class<?> BYTE_ARRAY = BodyPublishers.ofByteArray(new byte[0]).getClass();
  private static final Set<Class<?>> REPRODUCIBLE =
      Set.copyOf(
          List.of(
              BodyPublishers.noBody().getClass(),
              BodyPublishers.ofString("").getClass(),
              BYTE_ARRAY,
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

  /**
   * The request with a body of {@code BodyPublishers.ofByteArray} replaced by one over a copy of
   * its bytes now; any other request as it is.
   */
  static HttpRequest snapshot(HttpRequest request) {
    Optional<BodyPublisher> body = request.bodyPublisher();
    if (body.isEmpty() || body.get().getClass() != BYTE_ARRAY) {
      return request;
    }
    Optional<byte[]> bytes = copy(body.get());
    if (bytes.isEmpty()) {
      return request;
    }
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .method(request.method(), BodyPublishers.ofByteArray(bytes.get()))
        .build();
  }

  /**
   * The bytes a publisher of memory gives, read on this thread: the JDK's publishes them all within
   * the request for them. Empty if it did not (then the body is left as it is, rather than wait).
   */
  private static Optional<byte[]> copy(BodyPublisher publisher) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Void> done = new CompletableFuture<>();
    Flow.Subscription[] held = new Flow.Subscription[1];
    publisher.subscribe(
        new Flow.Subscriber<ByteBuffer>() {
          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            held[0] = subscription;
            subscription.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(ByteBuffer item) {
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            out.write(chunk, 0, chunk.length);
          }

          @Override
          public void onError(Throwable failure) {
            done.completeExceptionally(failure);
          }

          @Override
          public void onComplete() {
            done.complete(null);
          }
        });
    if (!done.isDone() || done.isCompletedExceptionally()) {
      if (held[0] != null) {
        held[0].cancel();
      }
      return Optional.empty();
    }
    return Optional.of(out.toByteArray());
  }

  /** The name of the request body's kind, for error messages. */
  static String kind(HttpRequest request) {
    return request.bodyPublisher().map(p -> p.getClass().getName()).orElse("none");
  }
}
