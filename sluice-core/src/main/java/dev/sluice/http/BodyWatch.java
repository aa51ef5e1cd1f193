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
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Wraps the application's body handler for one attempt to learn when and how the response body ends
 * ({@link BodyEnd}): read to its end, closed by its reader before the end (the stream of {@code
 * BodyHandlers.ofInputStream()} cancels its subscription when closed), or failed. The attempt holds
 * its lease until then. It can also end the body from outside: on a timeout or cancellation the
 * reader gets {@code reason} as its failure, and a response that is thrown away for a retry is
 * cancelled.
 *
 * <p>It also tells the application's failures from the connection's: when the application's
 * subscriber fails its body by itself (a file it cannot write, a mapping function that throws)
 * rather than with a failure this watch handed it, the body fails with an {@link
 * ApplicationFailure}, which is judged neutral and never retried.
 *
 * <p>Thread-safe: the client's signals, the reader's cancel and an abort from a timer are
 * serialized on this object, and nothing reaches the reader after the body ended.
 */
final class BodyWatch<T> implements BodyHandler<T> {
  private final BodyHandler<T> handler;
  private final CompletableFuture<BodyEnd> ended = new CompletableFuture<>();
  private volatile ResponseInfo info;

  // Guarded by this.
  private Flow.Subscription upstream;
  private BodySubscriber<T> downstream;
  private boolean subscribed;
  private boolean terminated;
  private IOException abortReason;

  /** The failure this watch gave the reader, if any: a body failing with it is not the reader's. */
  private Throwable handed;

  BodyWatch(BodyHandler<T> handler) {
    this.handler = handler;
  }

  /** Completes when the body ended, with how. */
  CompletableFuture<BodyEnd> ended() {
    return ended;
  }

  /** The response's status and headers once they came, else null. */
  ResponseInfo info() {
    return info;
  }

  @Override
  public BodySubscriber<T> apply(ResponseInfo info) {
    this.info = info;
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
      handed = reason;
      cancel = upstream;
      if (subscribed) {
        downstream.onError(reason);
      }
    }
    if (cancel != null) {
      cancel.cancel();
    }
    ended.complete(new BodyEnd.Failed(reason));
  }

  /**
   * Whether {@code failure}, which failed the reader's body, is one this watch handed it (the
   * connection's failure or an abort), found in its cause chain as readers pass it on or wrap it.
   */
  private synchronized boolean handedToReader(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t == handed) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private final class Watched implements BodySubscriber<T> {
    @Override
    public CompletionStage<T> getBody() {
      CompletableFuture<T> body = new CompletableFuture<>();
      downstream
          .getBody()
          .whenComplete(
              (value, failure) -> {
                if (failure == null) {
                  body.complete(value);
                  return;
                }
                Throwable f =
                    failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause()
                        : failure;
                body.completeExceptionally(handedToReader(f) ? f : new ApplicationFailure(f));
              });
      return body;
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
        handed = failure;
        downstream.onError(failure);
      }
      ended.complete(new BodyEnd.Failed(failure));
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
      ended.complete(BodyEnd.READ);
    }
  }

  /**
   * The subscription the reader sees: a cancel from it before the body's end abandons the body; one
   * after the end changes nothing.
   */
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
      boolean early;
      synchronized (BodyWatch.this) {
        early = !terminated;
        terminated = true;
      }
      upstream.cancel();
      if (early) {
        ended.complete(BodyEnd.ABANDONED);
      }
    }
  }
}
