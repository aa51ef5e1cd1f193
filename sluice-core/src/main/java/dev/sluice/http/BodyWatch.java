/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.http;

import java.io.IOException;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Wraps the application's body handler for one attempt to learn when the response body ends: read
 * to its end, failed, or closed by its reader (the stream of {@code BodyHandlers.ofInputStream()}
 * cancels its subscription when closed). The attempt holds its lease until then. It can also end
 * the body from outside: on a timeout or cancellation the reader gets {@code reason} as its
 * failure, and a response that is thrown away for a retry is cancelled.
 *
 * <p>Thread-safe: the client's signals, the reader's cancel and an abort from a timer are
 * serialized on this object, and nothing reaches the reader after the body ended.
 */
final class BodyWatch<T> implements BodyHandler<T> {
  private final BodyHandler<T> handler;
  private final CompletableFuture<Throwable> ended = new CompletableFuture<>();

  // Guarded by this.
  private Flow.Subscription upstream;
  private BodySubscriber<T> downstream;
  private boolean subscribed;
  private boolean terminated;
  private IOException abortReason;

  BodyWatch(BodyHandler<T> handler) {
    this.handler = handler;
  }

  /**
   * Completes when the body ended: with null when read to the end or closed by its reader, with the
   * failure when it failed or was aborted.
   */
  CompletableFuture<Throwable> ended() {
    return ended;
  }

  @Override
  public BodySubscriber<T> apply(ResponseInfo info) {
    BodySubscriber<T> s;
    try {
      s = handler.apply(info);
    } catch (RuntimeException | Error e) {
      throw new ApplicationFailure(e);
    }
    synchronized (this) {
      downstream = s;
    }
    return new Watched();
  }

  /** Ends the body: the reader sees {@code reason}; the connection's stream is cancelled. */
  void abort(IOException reason) {
    Flow.Subscription cancel;
    synchronized (this) {
      if (terminated) {
        return;
      }
      terminated = true;
      abortReason = reason;
      cancel = upstream;
      if (subscribed) {
        downstream.onError(reason);
      }
    }
    if (cancel != null) {
      cancel.cancel();
    }
    ended.complete(reason);
  }

  private final class Watched implements BodySubscriber<T> {
    @Override
    public CompletionStage<T> getBody() {
      return downstream.getBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      IOException aborted;
      synchronized (BodyWatch.this) {
        upstream = subscription;
        subscribed = true;
        downstream.onSubscribe(new ReaderSubscription(subscription));
        aborted = abortReason;
        if (aborted != null) {
          downstream.onError(aborted);
        }
      }
      if (aborted != null) {
        subscription.cancel();
      }
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
      synchronized (BodyWatch.this) {
        if (!terminated) {
          downstream.onNext(item);
        }
      }
    }

    @Override
    public void onError(Throwable failure) {
      synchronized (BodyWatch.this) {
        if (terminated) {
          return;
        }
        terminated = true;
        downstream.onError(failure);
      }
      ended.complete(failure);
    }

    @Override
    public void onComplete() {
      synchronized (BodyWatch.this) {
        if (terminated) {
          return;
        }
        terminated = true;
        downstream.onComplete();
      }
      ended.complete(null);
    }
  }

  /** The subscription the reader sees: a cancel from it ends the body as read. */
  private final class ReaderSubscription implements Flow.Subscription {
    private final Flow.Subscription upstream;

    ReaderSubscription(Flow.Subscription upstream) {
      this.upstream = upstream;
    }

    @Override
    public void request(long n) {
      upstream.request(n);
    }

    @Override
    public void cancel() {
      synchronized (BodyWatch.this) {
        terminated = true;
      }
      upstream.cancel();
      ended.complete(null);
    }
  }
}
