/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import javax.sql.DataSource;

/**
 * One wait for another JVM's owner to die, on a connection of its own: {@code
 * pg_advisory_lock_shared} on the owner's lock key blocks while the owner's JVM holds the lock and
 * returns the moment the server drops it with that JVM's connection. The shared lock is let go of
 * at once (a reclaim's {@code pg_try_advisory_xact_lock} must find it free), and every advisory
 * lock of the session is released before the connection goes back to the data source's pool.
 *
 * <p>Thread-safe: one thread awaits, any thread may cancel.
 */
final class OwnerWatch {
  private final String owner;
  private Statement running;
  private boolean cancelled;

  OwnerWatch(String owner) {
    this.owner = owner;
  }

  String owner() {
    return owner;
  }

  /**
   * Waits until the owner's lock is free, the connection fails or the watch is cancelled.
   *
   * @return whether the owner may have died: its lock was free, or the wait failed otherwise than
   *     by a cancel (its pools then look for themselves)
   */
  boolean await(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      try (PreparedStatement st = c.prepareStatement("SELECT pg_advisory_lock_shared(?)")) {
        st.setLong(1, OwnerIds.lockKey(owner));
        if (!started(st)) {
          return false;
        }
        st.execute();
        return true;
      } catch (SQLException e) {
        return !isCancelled();
      } finally {
        finished();
        unlockAll(c);
      }
    } catch (SQLException e) {
      return !isCancelled();
    }
  }

  /**
   * Ends the wait: the statement is cancelled on {@code executor} (a cancel request is a round trip
   * on a new socket), so the caller does not wait for it.
   */
  synchronized void cancel(Executor executor) {
    cancelled = true;
    Statement st = running;
    if (st == null) {
      return;
    }
    try {
      executor.execute(
          () -> {
            try {
              st.cancel();
            } catch (SQLException e) {
              // The statement ended meanwhile, or its connection failed: the wait is over either
              // way.
            }
          });
    } catch (RejectedExecutionException e) {
      // Stopping: the data source's shutdown ends the connection and the wait with it.
    }
  }

  private synchronized boolean started(Statement st) {
    if (cancelled) {
      return false;
    }
    running = st;
    return true;
  }

  private synchronized void finished() {
    running = null;
  }

  private synchronized boolean isCancelled() {
    return cancelled;
  }

  /**
   * Releases whatever advisory lock the wait took (a cancel may come after the lock was granted),
   * so that the connection goes back to its pool holding none; a connection on which that fails is
   * aborted rather than given back.
   */
  private static void unlockAll(Connection c) {
    try (Statement st = c.createStatement()) {
      st.execute("SELECT pg_advisory_unlock_all()");
    } catch (SQLException e) {
      try {
        c.abort(Runnable::run);
      } catch (SQLException | RuntimeException ignored) {
        // The connection is broken already; its pool drops it.
      }
    }
  }
}
