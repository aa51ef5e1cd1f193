/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.ExecuteOptions;
import dev.sluice.Limiter;
import dev.sluice.SluiceException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

/**
 * HTTP calls over {@link HttpClient} as managed executions of a limiter ({@link Limiter#http()}):
 * each attempt is admitted by the pool, holds its lease until the response body ended, and is
 * judged by {@link HttpClassifier} (429 and 503 throttle, passing on a {@code Retry-After}; 500,
 * 502, 504 and transport failures are service failures), so throttles feed the pool's shared
 * cooldown and failures its circuit breaker.
 *
 * <pre>{@code
 * HttpResponse<String> r = limiter.http().send(
 *     HttpRequest.newBuilder(URI.create("https://api.example.com/items")).build(),
 *     BodyHandlers.ofString(),
 *     ExecuteOptions.builder().replaySafe(true).build());
 * }</pre>
 *
 * <h2>Lifetime of the lease</h2>
 *
 * The lease is held until the body is read to its end, fails, or its reader closes it: for {@code
 * BodyHandlers.ofString()} that is before {@code send} returns; for {@code ofInputStream()} it is
 * when the application closes the stream, so close it (try-with-resources) even when abandoning it
 * half-way, or read it inside {@link #sendAndRead}, which closes it. Only a body read to its end
 * lets a 2xx count as a success for the shared cooldown and circuit breaker: one closed before its
 * end counts as neutral (an unfinished body shows no recovery), and one that fails as a service
 * failure; a throttle or an error status counts as its headers said, whatever its body did. The
 * attempt timeout and the deadline cover the body: when either passes, the body is aborted and its
 * reader gets an {@link java.io.IOException}. Each attempt sends with the client's blocking {@code
 * send} on the attempt's callback thread of the limiter (a timeout or cancellation interrupts it
 * there), and that thread waits while a body is being read.
 *
 * <h2>Retries</h2>
 *
 * A transient response (a throttle or a service failure) is thrown away and the request sent again
 * only when the options are {@code replaySafe}, attempts remain and the request body can be sent
 * again. A response handed to the application is never replayed; the last attempt's transient
 * response is returned, not thrown. A body can be sent again when there is none, or it is one of
 * {@code BodyPublishers.noBody()}, {@code ofString}, {@code ofByteArray} and {@code ofFile};
 * otherwise pass a {@link BodyFactory} that makes each attempt's body. An {@code ofByteArray} body
 * is copied when the call is made, so every attempt sends the bytes the array held then; a file is
 * read again at each attempt. A replay-safe call with retries, a body that cannot be sent again and
 * no factory is refused with {@link IllegalArgumentException} before anything is queued or spent.
 *
 * <p>A failure of the application's own code (its body handler, or the subscriber it returns, such
 * as a file that cannot be written) reaches the caller as it was raised; it is neutral and never
 * retried. The classifier of the options is not used: HTTP attempts are always judged by {@link
 * HttpClassifier}. A {@code Retry-After} date is measured against the pool's time, read from the
 * store ({@link Limiter#inspect()}) only when a throttle carries one. Every other setting (retry
 * policy, deadline, attempt timeout, schedule options) applies as to {@link Limiter#execute}.
 *
 * <p>Immutable and thread-safe. {@code send} blocks until the response's headers (or, for a
 * buffering body handler, its body) came; {@code sendAsync} never blocks.
 */
public final class HttpLimiter {
  private final Limiter limiter;
  private final HttpClient client;

  private HttpLimiter(Limiter limiter, HttpClient client) {
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * HTTP calls through {@code limiter} with a client shared by every such limiter of this JVM
   * ({@code HttpClient.newHttpClient()}, made on first use).
   *
   * @param limiter the limiter
   * @return the HTTP view
   */
  public static HttpLimiter of(Limiter limiter) {
    return new HttpLimiter(limiter, SharedClient.CLIENT);
  }

  /**
   * HTTP calls through {@code limiter} with the application's client.
   *
   * @param limiter the limiter
   * @param client the client; its settings (proxy, TLS, redirects, connect timeout) apply
   * @return the HTTP view
   */
  public static HttpLimiter of(Limiter limiter, HttpClient client) {
    return new HttpLimiter(limiter, client);
  }

  /** The limiter the calls go through. */
  public Limiter limiter() {
    return limiter;
  }

  /** The client that sends the requests. */
  public HttpClient client() {
    return client;
  }

  /**
   * Sends a request as a managed execution and waits for its response.
   *
   * @param request the request
   * @param handler how the body is read
   * @param options retries, deadline, attempt timeout and each attempt's schedule options
   * @param <T> the body type
   * @return the response; the last attempt's even if its status is transient
   * @throws IOException the last attempt's transport failure
   * @throws InterruptedException if interrupted while waiting; the call is then cancelled
   * @throws IllegalArgumentException if the call is replay-safe with retries and its body cannot be
   *     sent again
   */
  public <T> HttpResponse<T> send(
      HttpRequest request, BodyHandler<T> handler, ExecuteOptions options)
      throws IOException, InterruptedException {
    return await(sendAsync(request, handler, options));
  }

  /**
   * Sends a request as a managed execution, reads its response with {@code reader}, and closes the
   * body when the reader returns or throws: a streamed body ({@code ofInputStream}, {@code
   * ofLines}) that the reader leaves part-way gives the lease back then, not at the attempt
   * timeout; an {@code ofPublisher} body the reader did not subscribe to is cancelled. Any other
   * body (a string, bytes, a file) was read before the reader runs.
   *
   * @param request the request
   * @param handler how the body is read
   * @param options retries, deadline, attempt timeout and each attempt's schedule options
   * @param reader what the application reads, while the lease is held
   * @param <T> the body type
   * @param <R> what the reader returns
   * @return the reader's result
   * @throws IOException the last attempt's transport failure, or the reader's, or the body's close
   * @throws InterruptedException if interrupted while waiting for the response; the call is then
   *     cancelled
   * @throws IllegalArgumentException if the call is replay-safe with retries and its body cannot be
   *     sent again
   */
  public <T, R> R sendAndRead(
      HttpRequest request,
      BodyHandler<T> handler,
      ExecuteOptions options,
      ResponseReader<T, R> reader)
      throws IOException, InterruptedException {
    Objects.requireNonNull(reader, "reader");
    HttpResponse<T> response = send(request, handler, options);
    Throwable failed = null;
    try {
      return reader.read(response);
    } catch (Throwable t) {
      failed = t;
      throw t;
    } finally {
      if (failed == null) {
        close(response.body());
      } else {
        try {
          close(response.body());
        } catch (IOException | RuntimeException suppressed) {
          failed.addSuppressed(suppressed);
        }
      }
    }
  }

  /**
   * Ends a body the reader may have left: closes a stream, and cancels a publisher nobody
   * subscribed to (one already subscribed refuses a second subscriber, which changes nothing).
   */
  private static void close(Object body) throws IOException {
    if (body instanceof Flow.Publisher<?> publisher) {
      publisher.subscribe(CancelAtOnce.INSTANCE);
    } else if (body instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException("closing the response body failed", e);
      }
    }
  }

  /** A subscriber that takes nothing: it cancels its subscription as it gets it. */
  private enum CancelAtOnce implements Flow.Subscriber<Object> {
    INSTANCE;

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      subscription.cancel();
    }

    @Override
    public void onNext(Object item) {}

    @Override
    public void onError(Throwable throwable) {}

    @Override
    public void onComplete() {}
  }

  /**
   * Like {@link #send(HttpRequest, BodyHandler, ExecuteOptions)}, with each attempt's body made by
   * {@code bodies}; the request's own body publisher is not used.
   *
   * @param request the request: method, URI, headers, timeout
   * @param bodies makes each attempt's body
   * @param handler how the body is read
   * @param options retries, deadline, attempt timeout and each attempt's schedule options
   * @param <T> the body type
   * @return the response
   * @throws IOException the last attempt's transport failure
   * @throws InterruptedException if interrupted while waiting; the call is then cancelled
   */
  public <T> HttpResponse<T> send(
      HttpRequest request, BodyFactory bodies, BodyHandler<T> handler, ExecuteOptions options)
      throws IOException, InterruptedException {
    return await(sendAsync(request, bodies, handler, options));
  }

  /**
   * Sends a request as a managed execution.
   *
   * @param request the request
   * @param handler how the body is read
   * @param options retries, deadline, attempt timeout and each attempt's schedule options
   * @param <T> the body type
   * @return a future completed with the delivered response, or the call's failure; cancelling it
   *     before the response came cancels the call
   * @throws IllegalArgumentException if the call is replay-safe with retries and its body cannot be
   *     sent again
   */
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, BodyHandler<T> handler, ExecuteOptions options) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(options, "options");
    if (options.replaySafe()
        && options.retry().maxAttempts() > 1
        && !RequestBodies.reproducible(request)) {
      throw new IllegalArgumentException(
          "the body of "
              + request.method()
              + " "
              + request.uri()
              + " ("
              + RequestBodies.kind(request)
              + ") cannot be sent twice, but the call is replaySafe with "
              + options.retry().maxAttempts()
              + " attempts; pass a BodyFactory that makes each attempt's body, use a body of"
              + " BodyPublishers.ofString, ofByteArray or ofFile, or allow one attempt");
    }
    return start(
        new HttpCall<>(
            client, RequestBodies.snapshot(request), null, handler(handler), options, poolTime()));
  }

  /**
   * Like {@link #sendAsync(HttpRequest, BodyHandler, ExecuteOptions)}, with each attempt's body
   * made by {@code bodies}.
   *
   * @param request the request: method, URI, headers, timeout
   * @param bodies makes each attempt's body
   * @param handler how the body is read
   * @param options retries, deadline, attempt timeout and each attempt's schedule options
   * @param <T> the body type
   * @return a future completed with the delivered response, or the call's failure
   */
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, BodyFactory bodies, BodyHandler<T> handler, ExecuteOptions options) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(bodies, "bodies");
    Objects.requireNonNull(options, "options");
    return start(new HttpCall<>(client, request, bodies, handler(handler), options, poolTime()));
  }

  /** Reads the pool's time (the store's clock); blocks on the store. */
  private Supplier<Instant> poolTime() {
    return () -> limiter.inspect().takenAt();
  }

  private static <T> BodyHandler<T> handler(BodyHandler<T> handler) {
    return Objects.requireNonNull(handler, "handler");
  }

  private <T> CompletableFuture<HttpResponse<T>> start(HttpCall<T> call) {
    CompletableFuture<HttpCall.Attempt<T>> execution =
        limiter.execute(call::run, HttpOptions.judgedBy(call));
    CompletableFuture<HttpResponse<T>> delivered = call.delivered();
    execution.whenComplete(
        (last, failure) -> {
          if (failure != null) {
            delivered.completeExceptionally(ApplicationFailure.unwrap(unwrap(failure)));
          } else if (!last.handedOver()) {
            delivered.completeExceptionally(
                new SluiceException(
                    "the HTTP call "
                        + call
                        + " on pool '"
                        + limiter.pool()
                        + "' stopped before its response (status "
                        + last.response().statusCode()
                        + ") was delivered: its limiter is closing"));
          }
        });
    delivered.whenComplete(
        (r, e) -> {
          if (delivered.isCancelled()) {
            execution.cancel(false);
          }
        });
    return delivered;
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  private static <T> T await(CompletableFuture<T> f) throws IOException, InterruptedException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(false);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new SluiceException("the HTTP call failed: " + cause, cause);
    }
  }

  /** The client of {@link #of(Limiter)}, made on first use. */
  private static final class SharedClient {
    static final HttpClient CLIENT = HttpClient.newHttpClient();
  }
}
