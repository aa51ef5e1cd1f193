/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The one group-commit coordinator of Sluice's stores: callers queue work, and one coordinator
 * thread takes everything queued at that moment (up to a batch size) and hands it to the store as
 * one batch, which the store applies in one transaction. Under load the cost of a commit (a lock
 * hold, an fsync, a round trip to a server) is shared by the whole batch instead of paid per
 * caller; with one caller a batch is just that caller's work.
 *
 * <p>The batch runs on the coordinator, never on a caller's thread: a caller's interrupt during a
 * file lock or a socket read would break the connection for every user, and a caller that served
 * others' work could be kept from its own indefinitely. Items run in the order they were queued.
 *
 * <p>Thread-safe. {@link #submit} never blocks; {@link #close} blocks until the coordinator ended.
 *
 * @param <T> the store's unit of queued work, which carries its own result
 */
public final class GroupCommitter<T> implements AutoCloseable {
  /**
   * What the store does with the queued work. Called on the coordinator thread only.
   *
   * @param <T> the store's unit of queued work
   */
  public interface Store<T> {
    /**
     * Applies a batch in one transaction and completes each item's result.
     *
     * @param batch the items, in the order they were queued, never empty
     */
    void run(List<T> batch);

    /**
     * Completes an item that will not run: its batch threw {@code cause}, or the coordinator was
     * closed before it ran ({@code cause} is then {@link #closed()}'s exception).
     *
     * @param item the item
     * @param cause why
     */
    void fail(T item, Throwable cause);

    /** The exception of an item queued after {@link GroupCommitter#close()}. */
    RuntimeException closed();

    /** Runs on the coordinator after its last batch, before it ends: close what it owns. */
    default void stopped() {}
  }

  private static final Object STOP = new Object();

  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final Store<T> store;
  private final int maxBatch;
  private final Thread coordinator;

  /** Set with the stop marker under the queue's monitor, so no item is ever queued behind it. */
  private boolean stopping;

  /**
   * Starts the coordinator thread (a daemon thread, so an unclosed store never keeps a JVM alive).
   *
   * @param threadName the coordinator's name
   * @param maxBatch the most items of one batch, at least 1
   * @param store what to do with the batches
   */
  public GroupCommitter(String threadName, int maxBatch, Store<T> store) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch is " + maxBatch + "; it must be at least 1");
    }
    this.store = Objects.requireNonNull(store, "store");
    this.maxBatch = maxBatch;
    this.coordinator = new Thread(this::loop, threadName);
    coordinator.setDaemon(true);
    coordinator.start();
  }

  /** Whether the calling thread is the coordinator, inside a batch. */
  public boolean onCoordinator() {
    return Thread.currentThread() == coordinator;
  }

  /**
   * Queues {@code item} for the next batch; after {@link #close()}, fails it instead.
   *
   * @param item the work, which carries its own result
   */
  public void submit(T item) {
    Objects.requireNonNull(item, "item");
    synchronized (queue) {
      if (!stopping) {
        queue.add(item);
        return;
      }
    }
    store.fail(item, store.closed());
  }

  @SuppressWarnings("unchecked")
  private void loop() {
    List<Object> taken = new ArrayList<>();
    List<T> batch = new ArrayList<>();
    while (true) {
      try {
        taken.add(queue.take());
      } catch (InterruptedException e) {
        // Nobody interrupts this thread; keep serving, the queue is the only way out.
        continue;
      }
      queue.drainTo(taken, maxBatch - 1);
      boolean stop = taken.remove(STOP);
      for (Object o : taken) {
        batch.add((T) o);
      }
      if (!batch.isEmpty()) {
        runBatch(batch);
      }
      taken.clear();
      batch.clear();
      if (stop) {
        store.stopped();
        return;
      }
    }
  }

  private void runBatch(List<T> batch) {
    try {
      store.run(batch);
    } catch (Throwable e) {
      for (T item : batch) {
        store.fail(item, e);
      }
    }
  }

  /**
   * Lets the work already queued run, then stops the coordinator; called from outside a batch, it
   * waits for the coordinator to end (ignoring interrupts, whose status it keeps), so whatever the
   * coordinator owned is closed when it returns. Work submitted later fails at once with {@link
   * Store#closed()}. Idempotent.
   */
  @Override
  public void close() {
    synchronized (queue) {
      if (!stopping) {
        stopping = true;
        queue.add(STOP);
      }
    }
    if (onCoordinator()) {
      return;
    }
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
  }
}
