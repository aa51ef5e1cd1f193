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
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Runs the units of work that callers submit at the same time in one batch: one gate hold, one
 * transaction, one pulse and one commit (one fsync with {@code synchronous=FULL}) for all of them,
 * so the cost per unit falls as the load rises instead of every caller paying a commit.
 *
 * <p>Batches run on one coordinator thread, never on a caller's: the gate's file channel is shared
 * by the whole JVM, and a caller's interrupt during a file lock would close it for every user,
 * while a caller serving others' units could be kept from its own work indefinitely. Callers wait
 * for their result without reacting to interrupts (their interrupt status is kept).
 *
 * <p>Thread-safe. {@link #run} blocks until the unit's batch committed or failed.
 */
final class GroupCommit implements AutoCloseable {
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

  private static final Queued<Void> STOP = new Queued<>(tx -> null);

  private final LinkedBlockingQueue<Queued<?>> queue = new LinkedBlockingQueue<>();
  private final Batch batch;
  private final Thread coordinator;
  private volatile boolean stopping;

  GroupCommit(String name, Batch batch) {
    this.batch = batch;
    this.coordinator = new Thread(this::loop, name);
    coordinator.setDaemon(true);
    coordinator.start();
  }

  <R> R run(Unit<R> unit) {
    if (stopping) {
      throw closed();
    }
    if (Thread.currentThread() == coordinator) {
      // A unit that starts another (user code inside it calling the store) would wait for itself,
      // holding the gate every process of the store needs.
      throw new IllegalStateException(
          "a unit of work on this workflow store tried to start another one inside it");
    }
    Queued<R> q = new Queued<>(unit);
    queue.add(q);
    if (stopping && !coordinator.isAlive()) {
      // Queued after the coordinator's last look: nobody else will answer it.
      failLeftovers();
    }
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

  private void loop() {
    List<Queued<?>> units = new ArrayList<>();
    while (true) {
      try {
        units.add(queue.take());
      } catch (InterruptedException e) {
        // Nobody interrupts this thread; keep serving, the queue is the only way out.
        continue;
      }
      queue.drainTo(units, MAX_BATCH - 1);
      boolean stop = units.remove(STOP);
      if (!units.isEmpty()) {
        try {
          batch.run(units);
        } catch (Throwable e) {
          for (Queued<?> q : units) {
            q.result.completeExceptionally(e);
          }
        }
      }
      units.clear();
      if (stop) {
        return;
      }
    }
  }

  /** Lets the units already queued run, then stops the coordinator and waits for it. */
  @Override
  public void close() {
    stopping = true;
    queue.add(STOP);
    if (Thread.currentThread() != coordinator) {
      boolean interrupted = false;
      while (coordinator.isAlive()) {
        try {
          coordinator.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      failLeftovers();
    }
  }

  /** Fails what was queued after the coordinator stopped; call only once it has. */
  private void failLeftovers() {
    for (Queued<?> q; (q = queue.poll()) != null; ) {
      q.result.completeExceptionally(closed());
    }
  }

  private static IllegalStateException closed() {
    return new IllegalStateException("the workflow store session is closed");
  }
}
