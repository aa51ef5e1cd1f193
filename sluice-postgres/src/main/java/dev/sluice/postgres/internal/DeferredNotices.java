/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import dev.sluice.workflow.spi.Change;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Tells other JVMs of a workflow store, after the fact, of commits that were not announced with
 * their own NOTIFY: one NOTIFY naming every change owed since the last one, sent {@link
 * #COALESCE_MILLIS} after the first from a thread of its own, on a connection of the pool.
 *
 * <p>Two kinds of commit owe one. A commit of progress only (a step recorded, a claim taken): no
 * worker and no result waiter acts on progress; an inspector's listeners (a console, {@code sluice
 * top}) re-read on it, and a re-read covers every commit before it, so one late notification serves
 * them all. Announcing each in its own commit cost more than a third of a three-step execution's
 * notifications, each one a lock of the server's held to the end of its commit and a signal to
 * every listening connection. And a batch whose answer was lost after its COMMIT went out: it may
 * have committed work or an outcome that its own NOTIFY never announced.
 *
 * <p>A notice that cannot be sent (the server unreachable, the pool exhausted) is tried again
 * {@link #RETRY_MILLIS} later, so none is missed while this JVM runs; a listener that reconnects
 * reads everything again anyway. Thread-safe; {@link #owe} never blocks.
 */
final class DeferredNotices implements AutoCloseable {
  /** How long after the first owed change its notice goes out. */
  static final long COALESCE_MILLIS = 20;

  private static final Log LOG = Logs.of(DeferredNotices.class);
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
  private final String token;
  private final long coalesceMillis;
  private final ScheduledThreadPoolExecutor sender;

  /** The changes owed and not yet sent; empty when nothing is owed. Guarded by this. */
  private final EnumSet<Change> owed = EnumSet.noneOf(Change.class);

  /** Whether the last attempt failed: a failing stretch is logged once as it starts. */
  private boolean failing;

  /**
   * @param dataSource where the notice is sent from
   * @param channel the store's channel
   * @param token this JVM's view of the store, which its own listener passes over
   * @param describe the store, for the thread's name
   * @param coalesceMillis how long after the first owed change its notice goes out ({@link
   *     #COALESCE_MILLIS} but in tests)
   */
  DeferredNotices(
      DataSource dataSource, String channel, String token, String describe, long coalesceMillis) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.token = token;
    this.coalesceMillis = coalesceMillis;
    this.sender =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "sluice-postgres-workflow-notices " + describe);
              t.setDaemon(true);
              return t;
            });
    // Closing sends what is owed at once; a notice scheduled for later then has nothing to do.
    sender.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** A commit made {@code changes} (none is nothing owed) and did not announce them. */
  void owe(Set<Change> changes) {
    owe(changes, coalesceMillis);
  }

  /** Adds {@code changes} to what is owed; the first owed since a send schedules the next. */
  private void owe(Set<Change> changes, long delayMillis) {
    if (changes.isEmpty()) {
      return;
    }
    boolean first;
    synchronized (this) {
      first = owed.isEmpty();
      owed.addAll(changes);
    }
    if (first) {
      schedule(delayMillis);
    }
  }

  /** What is owed and not yet sent (for tests). */
  synchronized Set<Change> owed() {
    return Set.copyOf(owed);
  }

  private void schedule(long delayMillis) {
    try {
      sender.schedule(this::send, delayMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closed: the store's last session left; its owners' drop told everyone to look again.
    }
  }

  private void send() {
    EnumSet<Change> changes;
    // Taken before sending: a commit from now on owes a notice of its own.
    synchronized (this) {
      if (owed.isEmpty()) {
        return;
      }
      changes = EnumSet.copyOf(owed);
      owed.clear();
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement st = c.prepareStatement(SEND)) {
        st.setString(1, channel);
        st.setString(2, new WorkflowNotice(token, changes).text());
        st.execute();
      } catch (SQLException e) {
        BatchTransaction.rollbackQuietly(c, e);
        throw e;
      }
      failing = false;
    } catch (SQLException | RuntimeException e) {
      if (!failing) {
        LOG.warn("cannot tell other JVMs of changes on {} ({}); trying again", channel, e);
        failing = true;
      }
      owe(changes, RETRY_MILLIS);
    }
  }

  /**
   * Sends an owed notice now, on the notices' thread, and waits up to {@link #CLOSE_WAIT_MILLIS}
   * for it: the store's last session left, and the others learn of its last changes without waiting
   * for a timer. Blocks on that send (a round trip) at most that long.
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
