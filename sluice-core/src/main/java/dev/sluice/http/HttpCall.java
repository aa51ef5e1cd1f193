/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpTimeoutException;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * One HTTP call through the limiter: the task each attempt runs, and the future the application
 * gets. An attempt sends the request, judges the response's status, and either throws it away to
 * try again (cancelling its body) or hands it to the application through {@link #delivered()} and
 * then keeps its lease until the body ended — read, closed or failed — or the attempt was cancelled
 * (a timeout, the deadline, the caller), which aborts the body.
 *
 * <p>Thread-safe: attempts run one at a time; the delivered future is completed once.
 */
final class HttpCall<T> {
  private final HttpClient client;
  private final HttpRequest request;
  private final BodyFactory bodies;
  private final BodyHandler<T> handler;
  private final ExecuteOptions options;
  private final CompletableFuture<HttpResponse<T>> delivered = new CompletableFuture<>();

  /** What an attempt left: its response, how it was judged, and whether the caller got it. */
  record Attempt<T>(HttpResponse<T> response, AttemptOutcome outcome, boolean handedOver) {}

  HttpCall(
      HttpClient client,
      HttpRequest request,
      BodyFactory bodies,
      BodyHandler<T> handler,
      ExecuteOptions options) {
    this.client = client;
    this.request = request;
    this.bodies = bodies;
    this.handler = handler;
    this.options = options;
  }

  ExecuteOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return request.method() + " " + request.uri();
  }

  /** The future the application gets: completed at a response's delivery or the call's end. */
  CompletableFuture<HttpResponse<T>> delivered() {
    return delivered;
  }

  /** The task of one attempt. */
  Attempt<T> run(ExecutionContext ctx) throws Exception {
    BodyWatch<T> watch = new BodyWatch<>(handler);
    HttpRequest attemptRequest = requestFor(ctx.attempt());
    SendInterrupter sending = new SendInterrupter();
    ctx.cancellation()
        .thenRun(
            () -> {
              sending.interrupt();
              watch.abort(
                  new HttpTimeoutException(
                      "the HTTP attempt was stopped (attempt timeout, deadline or cancellation) "
                          + "before its response body ended; "
                          + ctx));
            });
    HttpResponse<T> response = send(attemptRequest, watch, sending);
    AttemptOutcome outcome = HttpClassifier.ofResponse(response, Instant.now());
    if (willRetry(ctx, outcome)) {
      watch.abort(new IOException("the response was thrown away for another attempt"));
      return new Attempt<>(response, outcome, false);
    }
    if (!delivered.complete(response)) {
      // The caller gave up before the response came: nobody will read its body.
      watch.abort(new IOException("the HTTP call was cancelled before its response came"));
      return new Attempt<>(response, AttemptOutcome.neutral(), false);
    }
    Throwable bodyFailure = watch.ended().join();
    if (bodyFailure != null && outcome instanceof AttemptOutcome.Success) {
      // A body that failed after a good status is the service's failure; a throttle or error
      // status, with its retry-after, stays what the headers said.
      outcome = HttpClassifier.ofFailure(bodyFailure);
    }
    // A response the application has seen is never replayed.
    return new Attempt<>(response, outcome.withoutRetry(), true);
  }

  private boolean willRetry(ExecutionContext ctx, AttemptOutcome outcome) {
    return options.replaySafe()
        && outcome.allowsRetry()
        && ctx.attempt() < options.retry().maxAttempts()
        && (bodies != null || RequestBodies.reproducible(request))
        && !ctx.cancelled()
        && !delivered.isDone();
  }

  private HttpRequest requestFor(int attempt) {
    if (bodies == null) {
      return request;
    }
    HttpRequest.BodyPublisher body;
    try {
      body = Objects.requireNonNull(bodies.body(attempt), "the body factory answered null");
    } catch (Exception | Error e) {
      throw new ApplicationFailure(e);
    }
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .method(request.method(), body)
        .build();
  }

  /**
   * Sends on this thread, which waits anyway; see {@link SendInterrupter} for why not {@code
   * sendAsync}. Fails as {@code sendAsync}'s future would: with the client's own failure, or with a
   * {@link CancellationException} when the attempt was cancelled.
   */
  private HttpResponse<T> send(HttpRequest r, BodyWatch<T> watch, SendInterrupter sending)
      throws Exception {
    HttpResponse<T> response;
    try {
      response = client.send(r, watch);
    } catch (InterruptedException e) {
      if (!sending.ended()) {
        throw e;
      }
      CancellationException cancelled =
          new CancellationException("the HTTP attempt was cancelled before its response came");
      cancelled.initCause(e);
      throw cancelled;
    } catch (Exception | Error e) {
      sending.ended();
      throw unwrapped(e);
    }
    sending.ended();
    return response;
  }

  /**
   * The failure itself out of the copy {@code HttpClient.send} wraps it in (an exception of a like
   * type with its message), so the caller sees what {@code sendAsync} would have failed with and
   * the classifier finds an {@link ApplicationFailure} before any wrapping {@link IOException}.
   */
  private static Exception unwrapped(Throwable t) {
    Throwable cause = t.getCause();
    Throwable failure =
        cause != null && cause != t && Objects.equals(t.getMessage(), cause.getMessage())
            ? cause
            : t;
    if (failure instanceof Error err) {
      throw err;
    }
    return (Exception) failure;
  }
}
