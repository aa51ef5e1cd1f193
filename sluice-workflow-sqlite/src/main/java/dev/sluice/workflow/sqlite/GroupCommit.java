/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.workflow.spi.WorkflowSession.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs the units of work that callers submit at the same time in one batch: one gate hold, one
 * transaction, one pulse and one commit (one fsync with {@code synchronous=FULL}) for all of them,
 * so the cost per unit falls as the load rises instead of every caller paying a commit.
 *
 * <p>No thread of its own: the first caller that finds no batch running leads, running every unit
 * queued until the queue is empty, its own included; the others wait for their result. A caller
 * alone pays no hand-off. After leading, a caller looks at the queue once more, because a unit
 * queued just before it let go may have seen it still leading.
 *
 * <p>Thread-safe. {@link #run} blocks until the unit's batch committed or failed.
 */
final class GroupCommit {
  private static final int MAX_BATCH = 64;

  /** Runs one batch in one transaction, and completes each unit's result. */
  interface Batch {
    void run(List<Queued<?>> units);
  }

  /** A unit waiting for its batch, and its result. */
  static final class Queued<R> {
    final Unit<R> unit;
    final CompletableFuture<R> result = new CompletableFuture<>();

    Queued(Unit<R> unit) {
      this.unit = unit;
    }
  }

  private final ConcurrentLinkedQueue<Queued<?>> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock leading = new ReentrantLock();
  private final Batch batch;

  GroupCommit(Batch batch) {
    this.batch = batch;
  }

  <R> R run(Unit<R> unit) {
    Queued<R> q = new Queued<>(unit);
    queue.add(q);
    do {
      if (!leading.tryLock()) {
        // The leader drains this unit, or finds it when it looks again after letting go.
        break;
      }
      try {
        drain();
      } finally {
        leading.unlock();
      }
    } while (!queue.isEmpty());
    try {
      return q.result.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  private void drain() {
    List<Queued<?>> units = new ArrayList<>();
    while (true) {
      for (Queued<?> q; units.size() < MAX_BATCH && (q = queue.poll()) != null; ) {
        units.add(q);
      }
      if (units.isEmpty()) {
        return;
      }
      try {
        batch.run(units);
      } catch (RuntimeException | Error e) {
        for (Queued<?> q : units) {
          q.result.completeExceptionally(e);
        }
      }
      units.clear();
    }
  }
}
