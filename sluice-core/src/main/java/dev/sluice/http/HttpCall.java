/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.SluiceException;
import dev.sluice.internal.RetryForecast;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.net.http.HttpTimeoutException;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One HTTP call through the limiter: the task each attempt runs, and the future the application
 * gets. An attempt sends the request, judges the response's status, and either throws it away to
 * try again (cancelling its body) or hands it to the application through {@link #delivered()} and
 * then keeps its lease until the body ended — read, closed or failed — or the attempt was cancelled
 * (a timeout, the deadline, the caller), which aborts the body. How the body ended can change the
 * attempt's outcome ({@link HttpClassifier#afterBody}).
 *
 * <p>A {@code Retry-After} date is measured against the pool's time (the store's clock, which the
 * shared cooldown also follows), read only when a throttle carries a date.
 *
 * <p>Thread-safe: attempts run one at a time, each task and its judgement on one thread; the
 * delivered future is completed once.
 */
final class HttpCall<T> {
  private final HttpClient client;
  private final HttpRequest request;
  private final BodyFactory bodies;
  private final BodyHandler<T> handler;
  private final ExecuteOptions options;
  private final Supplier<Instant> poolTime;
  private final CompletableFuture<HttpResponse<T>> delivered = new CompletableFuture<>();

  /** The last attempt whose send failed after its headers came, and how it was judged. */
  private volatile FailedAfterHeaders failedAfterHeaders;

  /** What an attempt left: its response, how it was judged, and whether the caller got it. */
  record Attempt<T>(HttpResponse<T> response, AttemptOutcome outcome, boolean handedOver) {}

  /** A send that failed after the response's status and headers came, and its outcome. */
  private record FailedAfterHeaders(Throwable failure, AttemptOutcome outcome) {}

  /**
   * A call.
   *
   * @param poolTime reads the pool's time now; may block on the store and throw a {@link
   *     SluiceException}
   */
  HttpCall(
      HttpClient client,
      HttpRequest request,
      BodyFactory bodies,
      BodyHandler<T> handler,
      ExecuteOptions options,
      Supplier<Instant> poolTime) {
    this.client = client;
    this.request = request;
    this.bodies = bodies;
    this.handler = handler;
    this.options = options;
    this.poolTime = poolTime;
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
    HttpResponse<T> response = sendJudged(ctx, attemptRequest, watch, sending);
    AttemptOutcome outcome =
        HttpClassifier.ofStatus(response.statusCode(), response.headers(), () -> now(ctx));
    if (willRetry(ctx, outcome)) {
      watch.abort(new IOException("the response was thrown away for another attempt"));
      return new Attempt<>(response, outcome, false);
    }
    if (!delivered.complete(response)) {
      // The caller gave up before the response came: nobody will read its body.
      watch.abort(new IOException("the HTTP call was cancelled before its response came"));
      return new Attempt<>(response, AttemptOutcome.neutral(), false);
    }
    outcome = HttpClassifier.afterBody(outcome, watch.ended().join());
    // A response the application has seen is never replayed.
    return new Attempt<>(response, outcome.withoutRetry(), true);
  }

  /**
   * Sends as {@link #send} does; a send that fails after the status and headers came (the client
   * buffering a body that broke, say) leaves its judgement for {@link #judge}, so that a throttle's
   * guidance outlives its body.
   */
  private HttpResponse<T> sendJudged(
      ExecutionContext ctx, HttpRequest r, BodyWatch<T> watch, SendInterrupter sending)
      throws Exception {
    try {
      return send(r, watch, sending);
    } catch (Exception e) {
      ResponseInfo info = watch.info();
      if (info != null) {
        AttemptOutcome byStatus =
            HttpClassifier.ofStatus(info.statusCode(), info.headers(), () -> now(ctx));
        failedAfterHeaders = new FailedAfterHeaders(e, HttpClassifier.ofFailure(e, byStatus));
      }
      throw e;
    }
  }

  /**
   * Judges an attempt (the classifier of the call's execution): by what its task left, else by its
   * failure and the status that came before it.
   */
  AttemptOutcome judge(Object result, Throwable failure) {
    if (result instanceof Attempt<?> a) {
      return a.outcome();
    }
    FailedAfterHeaders f = failedAfterHeaders;
    return f != null && f.failure() == failure ? f.outcome() : HttpClassifier.ofFailure(failure);
  }

  /**
   * The pool's time now. When the store cannot be read, the attempt's grant is the latest pool time
   * known; a wait measured from it is longer, never shorter, than the server asked.
   */
  private Instant now(ExecutionContext ctx) {
    try {
      return poolTime.get();
    } catch (SluiceException e) {
      return ctx.admission().grantedAt();
    }
  }

  private boolean willRetry(ExecutionContext ctx, AttemptOutcome outcome) {
    return (bodies != null || RequestBodies.reproducible(request))
        && !ctx.cancelled()
        && !delivered.isDone()
        // Asked last, and once: the execution's own decision made now, policy and deadline alike,
        // so a retry the deadline would cut off never costs the application its response.
        && ctx instanceof RetryForecast f
        && f.retryFollows(outcome);
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
