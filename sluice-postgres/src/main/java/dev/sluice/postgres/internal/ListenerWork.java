/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The work other threads queue for the {@link Listener}'s dedicated connection (LISTEN, taking and
 * releasing owner locks), run or failed in order by the listener thread, and that thread's pause
 * between connection attempts, which queued work cuts short.
 *
 * <p>Thread-safe.
 */
final class ListenerWork {
  /** Work for the connection, run on the listener thread. */
  @FunctionalInterface
  interface Work {
    void run(Connection c) throws SQLException;
  }

  private record Task(Work work, CompletableFuture<Void> done) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition queued = lock.newCondition();
  private final ArrayDeque<Task> tasks = new ArrayDeque<>();

  /** Queues work; the future completes when the listener thread ran it, or fails with it. */
  CompletableFuture<Void> add(Work work) {
    Task task = new Task(work, new CompletableFuture<>());
    lock.lock();
    try {
      tasks.add(task);
      queued.signalAll();
    } finally {
      lock.unlock();
    }
    return task.done();
  }

  /** Ends a {@link #pause} now: the listener has something new to look at. */
  void signal() {
    lock.lock();
    try {
      queued.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs the queued work on {@code c}, in order. Work that fails has its future failed; a transient
   * failure is thrown on as well, since the connection is likely gone and must be replaced.
   */
  void runAll(Connection c) throws SQLException {
    for (Task task = next(); task != null; task = next()) {
      try {
        task.work().run(c);
        task.done().complete(null);
      } catch (SQLException | RuntimeException e) {
        task.done().completeExceptionally(e);
        if (PgFailures.kind(e) == BackendFailureException.Kind.TRANSIENT) {
          throw e;
        }
      }
    }
  }

  /** Fails every queued piece of work with {@code cause}. */
  void failAll(Exception cause) {
    for (Task task = next(); task != null; task = next()) {
      task.done().completeExceptionally(cause);
    }
  }

  /** Waits up to {@code millis}, unless work is queued or {@code stopping} says so. */
  void pause(long millis, BooleanSupplier stopping) {
    lock.lock();
    try {
      if (tasks.isEmpty() && !stopping.getAsBoolean()) {
        queued.await(millis, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      // Nobody interrupts the listener thread; its loop decides whether to go on.
    } finally {
      lock.unlock();
    }
  }

  private Task next() {
    lock.lock();
    try {
      return tasks.poll();
    } finally {
      lock.unlock();
    }
  }
}
