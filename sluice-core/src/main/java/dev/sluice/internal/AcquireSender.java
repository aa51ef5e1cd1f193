/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Sends each request's acquire, or holds it in this JVM for a pass, and hands the answer to the
 * {@link AnswerRouting}, where it is registered as waiting before its acquire leaves.
 *
 * <p>Thread-safe; a blocking acquire waits on its thread for the store's answer.
 */
final class AcquireSender {
  /**
   * How long a request that may not wait waits for the store to answer at all. The answer takes a
   * transaction, which another process may be in the middle of; a store whose lock a stopped
   * process holds cannot answer, and then "no" is the answer rather than a wait.
   */
  static final long AT_ONCE_MILLIS = 200;

  private final CommandRunner runner;
  private final AnswerRouting routing;
  private final HandOffCoordinator handOffs;
  private final SyncRequests syncs;
  private final Consumer<PoolOutcome<?>> heard;

  /**
   * @param heard told of each acquire's outcome once it is routed, as every outcome of this owner's
   *     commands is
   */
  AcquireSender(
      CommandRunner runner,
      AnswerRouting routing,
      HandOffCoordinator handOffs,
      SyncRequests syncs,
      Consumer<PoolOutcome<?>> heard) {
    this.runner = runner;
    this.routing = routing;
    this.handOffs = handOffs;
    this.syncs = syncs;
    this.heard = heard;
  }

  /** Sends an acquire for a ticket, or holds it in this JVM, and routes the answer to it. */
  void acquire(Ticket t, long queueWaitMillis, boolean async) {
    // An attempt of a managed execution always goes to the store, which records its operation as
    // it takes the acquire; a unit passed here would start the attempt unrecorded.
    if (async && queueWaitMillis != 0 && t.operation.isEmpty() && handOffs.hold(t)) {
      // Held in this JVM until a pass or its turn to wait at the pool.
      return;
    }
    send(t, queueWaitMillis, async, t.acquireReadNanos);
  }

  /** Sends a ticket's acquire unless it was withdrawn or passed a unit first. */
  void send(Ticket t, long queueWaitMillis, boolean async) {
    // Sent later than its request was made (it was held here): its reading is no longer recent.
    send(t, queueWaitMillis, async, Requests.NO_READING);
  }

  private void send(Ticket t, long queueWaitMillis, boolean async, long readNanos) {
    PoolCommand.Acquire acquire =
        new PoolCommand.Acquire(
            runner.owner(),
            t.ref,
            t.weight,
            t.lifetime,
            queueWaitMillis,
            t.failFast,
            t.continuing,
            t.operation);
    CompletableFuture<PoolOutcome<AcquireAnswer>> f;
    synchronized (t) {
      if (t.beginSubmit()) {
        routing.register(t);
        f = runner.send(acquire, readNanos);
      } else {
        f = null;
      }
    }
    if (f == null) {
      // Withdrawn or passed a unit before it was sent: the store never sees it, and if it was this
      // JVM's request for the pool, the next held one takes its turn.
      handOffs.left(t.ref);
      handOffs.sendHeld();
      return;
    }
    if (!async) {
      PoolOutcome<AcquireAnswer> o;
      try {
        o = answer(f, queueWaitMillis);
      } catch (CompletionException e) {
        routing.unregister(t);
        t.refused();
        throw runner.report(CommandRunner.unwrap(e));
      }
      if (o == null) {
        // Taken back before the store applied it: the store never sees it.
        routing.unregister(t);
        t.refused();
        return;
      }
      answered(t, o);
      return;
    }
    f.whenComplete(
        (o, e) -> {
          if (e != null) {
            routing.unregister(t);
            t.dropped(runner.report(CommandRunner.unwrap(e)));
            t.refused();
          } else {
            answered(t, o);
          }
        });
  }

  /**
   * The store's answer to a blocking acquire, waited for as long as the request may wait: for ever,
   * {@link #AT_ONCE_MILLIS} for one that may not wait, else its queue wait. When that ends first,
   * the acquire is taken back if the store has not begun to apply it ({@code null}), or its answer,
   * which is then on its way, is awaited. Interrupts are kept for the caller.
   */
  private static PoolOutcome<AcquireAnswer> answer(
      CompletableFuture<PoolOutcome<AcquireAnswer>> f, long queueWaitMillis) {
    if (queueWaitMillis < 0 || f.isDone()) {
      return f.join();
    }
    long patience = queueWaitMillis == 0 ? AT_ONCE_MILLIS : queueWaitMillis;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(patience);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          return f.cancel(false) ? null : f.join();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw new CompletionException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void answered(Ticket t, PoolOutcome<AcquireAnswer> o) {
    AcquireAnswer r = o.value();
    if (r instanceof AcquireAnswer.Queued q) {
      t.storeEntry(q.entryId(), q.queueDeadline());
      // Syncs built before now left this request out; one may have been applied after its acquire.
      syncs.entryKnown(o.sequence());
    } else {
      routing.unregister(t);
      if (o.atIssuersReading() && r instanceof AcquireAnswer.Granted) {
        t.grantedAtReading = true;
      }
    }
    routing.handle(o);
    heard.accept(o);
    routing.deliver(t, r);
    BackendFailureException f = runner.failure();
    if (f != null) {
      // The store failed while this acquire was on its way: the failure may have missed it.
      t.fail(f);
    }
    handOffs.sendHeld();
  }
}
