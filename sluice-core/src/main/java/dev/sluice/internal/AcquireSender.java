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

/**
 * Sends each request's acquire, or holds it in this JVM for a pass, and hands the answer to the
 * {@link AnswerRouting}, where it is registered as waiting before its acquire leaves.
 *
 * <p>Thread-safe; a blocking acquire waits on its thread for the store's answer.
 */
final class AcquireSender {
  private final String owner;
  private final CommandRunner runner;
  private final AnswerRouting routing;
  private final HandOffCoordinator handOffs;
  private final SyncRequests syncs;

  AcquireSender(
      String owner,
      CommandRunner runner,
      AnswerRouting routing,
      HandOffCoordinator handOffs,
      SyncRequests syncs) {
    this.owner = owner;
    this.runner = runner;
    this.routing = routing;
    this.handOffs = handOffs;
    this.syncs = syncs;
  }

  /** Sends an acquire for a ticket, or holds it in this JVM, and routes the answer to it. */
  void acquire(Ticket t, long queueWaitMillis, boolean async) {
    if (async && queueWaitMillis != 0 && handOffs.hold(t)) {
      // Held in this JVM until a pass or its turn to wait at the pool.
      return;
    }
    send(t, queueWaitMillis, async);
  }

  /** Sends a ticket's acquire unless it was withdrawn or passed a unit first. */
  void send(Ticket t, long queueWaitMillis, boolean async) {
    PoolCommand.Acquire acquire =
        new PoolCommand.Acquire(owner, t.ref, t.weight, t.lifetime, queueWaitMillis);
    CompletableFuture<PoolOutcome<AcquireAnswer>> f;
    synchronized (t) {
      if (t.beginSubmit()) {
        routing.register(t);
        f = runner.send(acquire);
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
        o = f.join();
      } catch (CompletionException e) {
        routing.unregister(t);
        t.refused();
        throw runner.report(CommandRunner.unwrap(e));
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

  private void answered(Ticket t, PoolOutcome<AcquireAnswer> o) {
    AcquireAnswer r = o.value();
    if (r instanceof AcquireAnswer.Queued q) {
      t.storeEntry(q.entryId(), q.queueDeadline());
      // Syncs built before now left this request out; one may have been applied after its acquire.
      syncs.entryKnown(o.sequence());
    } else {
      routing.unregister(t);
    }
    routing.handle(o);
    routing.deliver(t, r);
    BackendFailureException f = runner.failure();
    if (f != null) {
      // The store failed while this acquire was on its way: the failure may have missed it.
      t.fail(f);
    }
    handOffs.sendHeld();
  }
}
