/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.SluiceException;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.workflow.jdbc.JdbcWorkflowTransaction;
import dev.sluice.workflow.jdbc.QueuedUnit;
import dev.sluice.workflow.jdbc.WorkflowRows;
import dev.sluice.workflow.spi.WorkflowSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One runtime's owner of a PostgreSQL workflow store. Its units of work are batched by a
 * coordinator thread into transactions on a connection of its own, each taking the store's
 * transaction-scoped advisory lock first, so units run one at a time across every JVM, as the
 * session contract asks; claims still lock their rows with {@code FOR UPDATE SKIP LOCKED}. The
 * owner's liveness is its advisory lock on this JVM's dedicated connection and its heartbeat; an
 * owner the store declared dead (heartbeat lapsed), or whose last commit's fate is unknown, is
 * replaced by a new owner, and what the old one claimed is taken over by epoch, its later writes
 * refused.
 *
 * <p>Thread-safe. {@link #transact} blocks on the database and on the store's lock.
 */
public final class PgWorkflowSession implements WorkflowSession {
  private static final int MAX_BATCH = 64;
  private static final long FIRST_RETRY_MILLIS = 100;
  private static final long LAST_RETRY_MILLIS = 5_000;

  private final WorkflowHub hub;
  private final PgWorkflowSettings settings;
  private final PgWorkflowDialect dialect;
  private final ServerClock serverClock;
  private final GroupCommitter<QueuedUnit<?>> commits;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object renewal = new Object();
  private volatile String ownerId;
  private volatile Runnable onChange;

  // Confined to the coordinator thread.
  private Connection db;
  private WorkflowRows rows;

  private PgWorkflowSession(WorkflowHub hub, PgWorkflowSettings settings, String ownerId) {
    this.hub = hub;
    this.settings = settings;
    this.ownerId = ownerId;
    this.dialect = new PgWorkflowDialect(settings.tables());
    this.serverClock = ServerClock.of(settings.dataSource());
    this.commits =
        new GroupCommitter<>("sluice-postgres-workflow-" + ownerId, MAX_BATCH, new Batches());
  }

  /**
   * Opens a session: joins this JVM's view of the store (creating or checking its tables) and
   * registers a new owner.
   *
   * @param settings where and how
   * @return the session
   */
  public static PgWorkflowSession open(PgWorkflowSettings settings) {
    WorkflowHub hub = WorkflowHub.attach(settings);
    String id;
    try {
      id = hub.register();
    } catch (RuntimeException e) {
      hub.release();
      throw e;
    }
    PgWorkflowSession s = new PgWorkflowSession(hub, settings, id);
    hub.join(s);
    return s;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> R transact(Unit<R> unit) {
    if (closed.get()) {
      throw new IllegalStateException("workflow store session " + ownerId + " is closed");
    }
    if (commits.onCoordinator()) {
      throw new IllegalStateException(
          "a unit of work on this workflow store tried to start another one inside it");
    }
    QueuedUnit<R> q = new QueuedUnit<>(unit);
    commits.submit(q);
    return q.await();
  }

  /** The coordinator's side of the group commit. */
  private final class Batches implements GroupCommitter.Store<QueuedUnit<?>> {
    @Override
    public void run(List<QueuedUnit<?>> batch) {
      runBatch(batch);
    }

    @Override
    public void fail(QueuedUnit<?> q, Throwable cause) {
      q.fail(cause);
    }

    @Override
    public RuntimeException closed() {
      return new IllegalStateException("the workflow store session is closed");
    }

    @Override
    public void stopped() {
      disconnect();
    }
  }

  /**
   * Runs a batch in one transaction under the store's lock, each unit in its own savepoint; any SQL
   * failure of the batch fails every unit, nothing written.
   */
  private void runBatch(List<QueuedUnit<?>> units) {
    String owner = ownerId;
    boolean wrote;
    boolean committing = false;
    try {
      Connection c = connection();
      try (Statement st = c.createStatement()) {
        long now = lockAndTime(c);
        rows.checkSchema();
        wrote =
            QueuedUnit.runAll(
                st,
                units,
                () -> new JdbcWorkflowTransaction(rows, now, owner, this::provenDead),
                this::failure,
                true);
        if (wrote) {
          hub.notifyEveryone(c);
        }
        committing = true;
        c.commit();
      }
    } catch (SQLException | RuntimeException e) {
      abandon(e);
      if (committing) {
        // The commit may have happened although its answer was lost: the runtime was told its
        // units failed, so this owner gives up what it claimed, and goes on as a new owner.
        hub.schedule(() -> renewOwner(owner), 0);
      }
      throw e instanceof SluiceException se ? se : failure(e);
    }
    units.forEach(QueuedUnit::complete);
    if (wrote) {
      hub.wakeAll();
    }
  }

  private Connection connection() throws SQLException {
    if (db == null) {
      Connection c = settings.dataSource().getConnection();
      try {
        c.setAutoCommit(false);
        rows = new WorkflowRows(c, settings.tables().describe(), dialect);
      } catch (SQLException | RuntimeException e) {
        BatchTransaction.rollbackQuietly(c, e);
        c.close();
        throw e;
      }
      db = c;
    }
    return db;
  }

  /**
   * Takes the store's lock for the transaction and returns the store's time, in one round trip: the
   * target list is evaluated in order, so the clock is read once the lock is held.
   */
  private long lockAndTime(Connection c) throws SQLException {
    long before = System.currentTimeMillis();
    long server;
    try (PreparedStatement lock =
        c.prepareStatement("SELECT pg_advisory_xact_lock(?), " + PoolRows.SERVER_MILLIS)) {
      lock.setLong(1, settings.tables().workflowLockKey());
      try (ResultSet rs = lock.executeQuery()) {
        rs.next();
        server = rs.getLong(2);
      }
    }
    if (settings.clientClock().isPresent()) {
      return settings.clientClock().get().wallMillis();
    }
    serverClock.observe(server, before, System.currentTimeMillis());
    return server;
  }

  /** Rolls a failed batch back; a connection that failed is dropped and replaced next time. */
  private void abandon(Exception e) {
    if (db == null) {
      return;
    }
    BatchTransaction.rollbackQuietly(db, e);
    if (e instanceof SQLException || e instanceof JdbcWorkflowTransaction.SqlFailure) {
      disconnect();
    }
  }

  private void disconnect() {
    if (rows != null) {
      try {
        rows.close();
      } catch (SQLException | RuntimeException e) {
        // Closing a broken connection is best effort.
      }
    }
    rows = null;
    db = null;
  }

  private BackendFailureException failure(Throwable e) {
    return PgFailures.of(settings.describe() + ": unit of work failed, nothing was written", e);
  }

  /** Proves an owner dead inside the unit's transaction (see {@link WorkflowOwners#dead}). */
  private boolean provenDead(String owner) throws SQLException {
    if (owner.equals(ownerId)) {
      return closed.get();
    }
    return WorkflowOwners.dead(db, settings.tables(), owner, hub.localOwners().contains(owner));
  }

  /**
   * Replaces {@code lost} by a new owner: registered first, then the old one dropped, so that its
   * claims are taken over (by this runtime too) while this session goes on. Tried again, 100 ms
   * doubling to 5 s, while the server cannot register it.
   */
  void renewOwner(String lost) {
    renewOwner(lost, FIRST_RETRY_MILLIS);
  }

  private void renewOwner(String lost, long retry) {
    synchronized (renewal) {
      if (closed.get() || !lost.equals(ownerId)) {
        return;
      }
      try {
        ownerId = hub.register();
      } catch (RuntimeException e) {
        hub.schedule(() -> renewOwner(lost, Math.min(retry * 2, LAST_RETRY_MILLIS)), retry);
        return;
      }
    }
    hub.drop(lost);
  }

  /** Runs the change action: something on the store changed, or an owner may have died. */
  void changed() {
    Runnable action = onChange;
    if (action != null && !closed.get()) {
      action.run();
    }
  }

  @Override
  public void onChange(Runnable onChange) {
    this.onChange = onChange;
  }

  /**
   * Leaves the store: units queued before still run, then the owner's row and lock go and every
   * session of the store looks again, to take over what it still claims.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    commits.close();
    synchronized (renewal) {
      hub.leave(this, ownerId);
    }
  }

  @Override
  public String toString() {
    return "PgWorkflowSession[" + settings.describe() + ", owner " + ownerId + "]";
  }
}
