/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * Tells other JVMs of a workflow store that this one committed progress only (a step recorded, a
 * claim taken): one NOTIFY for every commit of that kind made within {@link #COALESCE_MILLIS} of
 * the first, sent after them from a thread of its own. No worker and no result waiter acts on
 * progress; an inspector's listeners (a console, {@code sluice top}) re-read on it, and a re-read
 * covers every commit before it, so one late notification serves them all. A NOTIFY costs the
 * server a lock held to the end of its commit and a signal to every listening connection, and most
 * commits of a running workflow are progress: announcing each in its own commit cost a third of the
 * notifications of a three-step execution.
 *
 * <p>A notice that cannot be sent (the server unreachable, the pool exhausted) is tried again
 * {@link #RETRY_MILLIS} later, so none is missed while this JVM runs; a listener that reconnects
 * reads everything again anyway. Thread-safe; {@link #committed()} never blocks.
 */
final class ProgressNotices implements AutoCloseable {
  /** How long after the first progress commit its notice goes out. */
  static final long COALESCE_MILLIS = 20;

  private static final long RETRY_MILLIS = 1_000;

  /** How long closing waits for an owed notice to go out (a server that does not answer). */
  private static final long CLOSE_WAIT_MILLIS = 5_000;

  /**
   * The notice in a transaction whose commit waits for no WAL flush: a notification is not durable
   * anyway, and the server's notify lock is then held only for a moment.
   */
  private static final String SEND =
      "SELECT set_config('synchronous_commit', 'off', true), pg_notify(?, ?); COMMIT";

  private final DataSource dataSource;
  private final String channel;
  private final String payload;
  private final long coalesceMillis;
  private final AtomicBoolean owed = new AtomicBoolean();
  private final ScheduledThreadPoolExecutor sender;

  /**
   * @param dataSource where the notice is sent from
   * @param channel the store's channel
   * @param payload the notice, naming this JVM's view of the store and progress
   * @param describe the store, for the thread's name
   * @param coalesceMillis how long after the first progress commit its notice goes out ({@link
   *     #COALESCE_MILLIS} but in tests)
   */
  ProgressNotices(
      DataSource dataSource, String channel, String payload, String describe, long coalesceMillis) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.payload = payload;
    this.coalesceMillis = coalesceMillis;
    this.sender =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "sluice-postgres-workflow-progress " + describe);
              t.setDaemon(true);
              return t;
            });
    // Closing sends what is owed at once; a notice scheduled for later then has nothing to do.
    sender.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** A commit of progress only has been made: a notice follows within the coalescing time. */
  void committed() {
    if (owed.compareAndSet(false, true)) {
      schedule(coalesceMillis);
    }
  }

  /** Whether a notice is owed and not yet sent (for tests). */
  boolean owed() {
    return owed.get();
  }

  private void schedule(long delayMillis) {
    try {
      sender.schedule(this::send, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closed: the store's last session left, and no one here has progress to tell.
    }
  }

  private void send() {
    // Cleared before sending: a commit from now on owes a notice of its own.
    if (!owed.getAndSet(false)) {
      return;
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement st = c.prepareStatement(SEND)) {
        st.setString(1, channel);
        st.setString(2, payload);
        st.execute();
      } catch (SQLException e) {
        BatchTransaction.rollbackQuietly(c, e);
        throw e;
      }
    } catch (SQLException | RuntimeException e) {
      if (owed.compareAndSet(false, true)) {
        schedule(RETRY_MILLIS);
      }
    }
  }

  /**
   * Sends an owed notice now, on the notices' thread, and waits up to {@link #CLOSE_WAIT_MILLIS}
   * for it: the store's last session left, and the others learn of its last progress without
   * waiting for a timer. Blocks on that send (a round trip) at most that long.
   */
  @Override
  public void close() {
    try {
      sender.execute(this::send);
    } catch (RejectedExecutionException e) {
      return; // closed already
    }
    sender.shutdown();
    try {
      sender.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
