/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.SluiceException;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.workflow.jdbc.JdbcWorkflowTransaction;
import dev.sluice.workflow.jdbc.QueuedUnit;
import dev.sluice.workflow.jdbc.WorkflowRows;
import dev.sluice.workflow.spi.Change;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One group-commit coordinator of a {@link PgWorkflowSession}, with a connection of its own: it
 * runs the batches of one kind of unit, each in one transaction that first takes the store's
 * transaction-scoped advisory lock, each unit inside its own savepoint.
 *
 * <p>A {@link Mode#STORE} lane runs units that may touch any row (claims, timers, take-overs,
 * durable stores, submits): it takes the lock exclusively, so they run one at a time with every
 * other unit of every JVM, as the session contract asks. A {@link Mode#EXECUTION} lane runs units
 * of {@link dev.sluice.workflow.spi.WorkflowSession#transactOn} (step records, completions): it
 * takes the lock shared, so such batches of several JVMs run at once, and each unit's first read
 * locks its execution's row, so units of one execution still take turns; a superseded worker's
 * write waits for the row and is then refused by its claim's epoch.
 *
 * <p>Every batch sets the server's {@code idle_in_transaction_session_timeout} for its transaction
 * (a third of the heartbeat timeout): a JVM stopped (SIGSTOP, a long pause) inside a batch would
 * otherwise hold the store's lock, and with it every other JVM, until it runs again. The server
 * ends such a session; its batch fails as a lost connection does, nothing written.
 *
 * <p>Thread-safe to submit to; its connection is confined to its coordinator thread.
 */
final class WorkflowLane implements GroupCommitter.Store<QueuedUnit<?>> {
  private static final int MAX_BATCH = 64;

  /** The most due timers a claim reads ahead: as many as it fires at once. */
  private static final int TIMERS_AHEAD = 64;

  /**
   * How far past this JVM's estimate of the store time a claim reads due timers ahead, so that the
   * time its lock statement then reads is covered even after a wait for the lock.
   */
  private static final long TIMERS_AHEAD_MILLIS = 1_000;

  /** Which units a lane runs, and how it takes the store's lock for them. */
  enum Mode {
    /** Any unit: the store's lock taken exclusively. */
    STORE("pg_advisory_xact_lock"),
    /** Units of one execution each: the store's lock shared, the execution's row locked. */
    EXECUTION("pg_advisory_xact_lock_shared");

    private final String lockFunction;

    Mode(String lockFunction) {
      this.lockFunction = lockFunction;
    }
  }

  private final PgWorkflowSession session;
  private final PgWorkflowSettings settings;
  private final PgWorkflowDialect dialect;
  private final ServerClock serverClock;
  private final WorkflowHub hub;
  private final Mode mode;
  private final String begin;
  private final long lockKey;
  private final String read;
  private final GroupCommitter<QueuedUnit<?>> commits;

  // Confined to the coordinator thread.
  private Connection db;
  private WorkflowRows rows;

  WorkflowLane(
      PgWorkflowSession session,
      PgWorkflowSettings settings,
      PgWorkflowDialect dialect,
      WorkflowHub hub,
      Mode mode,
      String name) {
    this.session = session;
    this.settings = settings;
    this.dialect = dialect;
    this.serverClock = ServerClock.of(settings.dataSource());
    this.hub = hub;
    this.mode = mode;
    // Evaluated in order: the idle timeout and the clock once the lock is held, in one round trip.
    this.begin =
        "SELECT "
            + mode.lockFunction
            + "(?), set_config('idle_in_transaction_session_timeout', ?, true), "
            + PoolRows.SERVER_MILLIS
            + ", "
            + WorkflowRows.schemaRead(dialect)
            // A claim walks the queue in order and stops at the first row it can lock, which only
            // an ordered index scan does without reading the whole queue. On a table the planner
            // has no statistics of yet (a new store, a burst of submits) it chose a bitmap scan of
            // every queued row and a sort instead, for each claim (about 1 ms for 2,000 rows).
            // Every query of a batch reads a few rows by key, which plain index scans serve.
            + ", set_config('enable_bitmapscan', 'off', true)";
    // A hash of the store's names: computed once, not for every batch.
    this.lockKey = settings.tables().workflowLockKey();
    this.read =
        "SELECT "
            + WorkflowRows.schemaRead(dialect)
            + "; "
            + WorkflowRows.executionQuery(dialect)
            + "; COMMIT";
    this.commits = new GroupCommitter<>(name, MAX_BATCH, this);
  }

  /** Queues a unit; its caller awaits it. */
  void submit(QueuedUnit<?> unit) {
    commits.submit(unit);
  }

  /** Whether the caller is this lane's coordinator thread. */
  boolean onCoordinator() {
    return commits.onCoordinator();
  }

  /** Runs the units queued so far, then closes the connection; later units are refused. */
  void close() {
    commits.close();
  }

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

  /**
   * Runs a batch in one transaction under the store's lock, each unit in its own savepoint; any SQL
   * failure of the batch fails every unit, nothing written. Round trips: one to begin (the lock,
   * the idle timeout, the clock, the schema check and the first savepoint), the units' own with one
   * between units, and one to end (the notification, when a unit wrote, with the commit).
   */
  private void runBatch(List<QueuedUnit<?>> units) {
    Optional<String> readsOnly = units.get(0).readsOnly();
    if (units.size() == 1 && readsOnly.isPresent()) {
      runRead(units.get(0), readsOnly.get());
      return;
    }
    String owner = session.ownerId();
    Set<Change> changes = Set.of();
    boolean committing = false;
    try {
      Connection c = connection();
      try (Statement st = c.createStatement()) {
        QueuedUnit<?> first = units.get(0);
        Began began = begin(c, QueuedUnit.savepointFirst(units), first);
        changes =
            QueuedUnit.runBegun(
                c,
                st,
                units,
                q -> {
                  JdbcWorkflowTransaction tx =
                      new JdbcWorkflowTransaction(
                          rows,
                          began.now(),
                          owner,
                          o -> session.provenDead(c, o),
                          q.locksExecutions());
                  if (q == first && began.ahead() != null) {
                    tx.readAhead(began.ahead());
                  }
                  if (q == first && began.timers() != null) {
                    tx.readAheadTimers(began.timers(), began.timersUpTo(), TIMERS_AHEAD);
                  }
                  return tx;
                },
                session::failure);
        // From here a failure may have lost the commit's answer (the commit and the notification
        // go in one call).
        committing = true;
        hub.commit(c, changes, units.size() == 1 ? first.lastWrite() : null);
      }
    } catch (SQLException | RuntimeException e) {
      abandon(e);
      // An error of a data statement (a unit's last write sent with the commit) aborts the
      // transaction: nothing was committed. Anything else, the notification's transaction after
      // the commit included, may have lost a commit's answer.
      if (committing && !refusedBeforeCommit(e)) {
        // The commit may have happened although its answer was lost: the runtime was told its
        // units failed, so this owner gives up what it claimed, and goes on as a new owner; and
        // what it may have changed is told to every session, here and, later, in other JVMs.
        session.lostCommit(owner);
        hub.maybeCommitted(changes);
      }
      throw e instanceof SluiceException se ? se : session.failure(e);
    }
    units.forEach(QueuedUnit::complete);
    if (!changes.isEmpty()) {
      hub.wake(Set.copyOf(changes));
    }
  }

  /**
   * Whether the server refused a statement of the batch before its commit, so that nothing was
   * committed: an error that may come from the notification sent after the commit does not say so.
   */
  private static boolean refusedBeforeCommit(Exception e) {
    return PgFailures.refusedByServer(e) && Announcements.provesNothingCommitted((SQLException) e);
  }

  /**
   * Runs a batch of one read of an execution's row in one round trip: the schema's version, then
   * the row, each statement in a snapshot of its own, then the commit. No lock: a row is committed
   * whole, so the read sees the execution as some commit left it, as a read under the lock would.
   */
  private void runRead(QueuedUnit<?> q, String id) {
    WorkflowRows.ExecutionRead row;
    try {
      Connection c = connection();
      String schema;
      try (PreparedStatement st = c.prepareStatement(read)) {
        st.setString(1, id);
        st.execute();
        try (ResultSet rs = st.getResultSet()) {
          rs.next();
          schema = rs.getString(1);
        }
        st.getMoreResults();
        try (ResultSet rs = st.getResultSet()) {
          row = rows.executionFrom(id, rs);
        }
      }
      rows.checkSchema(schema);
    } catch (SQLException | RuntimeException e) {
      abandon(e);
      throw e instanceof SluiceException se ? se : session.failure(e);
    }
    q.completeRead(row);
  }

  private Connection connection() throws SQLException {
    if (db == null) {
      Connection c = settings.dataSource().getConnection();
      try {
        c.setAutoCommit(false);
        rows =
            new WorkflowRows(
                c, settings.tables().describe(), dialect, session.ownerDeathsWithTheirRead());
      } catch (SQLException | RuntimeException e) {
        BatchTransaction.rollbackQuietly(c, e);
        c.close();
        throw e;
      }
      db = c;
    }
    return db;
  }

  /** The store time up to which a claim's due timers are read with the lock statement. */
  private long timersReadUpTo() {
    return settings.clientClock().isPresent()
        ? settings.clientClock().get().wallMillis()
        : serverClock.wallMillis() + TIMERS_AHEAD_MILLIS;
  }

  /**
   * What beginning a batch read: the store's time for its units, and the first unit's execution
   * when it said which one it touches (null otherwise).
   */
  private record Began(
      long now,
      WorkflowRows.ExecutionRead ahead,
      WorkflowRows.TimersAndOwners timers,
      long timersUpTo) {}

  /**
   * Takes the store's lock for the transaction, sets its idle timeout, reads the store's time and
   * schema version, reads and locks the first unit's execution if it named one and, with {@code
   * savepoint}, takes the first unit's savepoint, in one round trip; checks the version. The
   * version is read in the statement's snapshot, taken before the lock: a newer Sluice's migration
   * (which does not take this lock) is seen by the next batch, as it was when the check was a
   * statement of its own. The execution is read after the lock, as the unit's own first read would
   * have been.
   */
  private Began begin(Connection c, boolean savepoint, QueuedUnit<?> first) throws SQLException {
    long before = System.currentTimeMillis();
    Optional<String> execution = first.executionId();
    // A claim's due timers are read up to a store time ahead of the one the lock statement will
    // read; a claim whose time turns out later reads them again (a long wait for the lock).
    long timersUpTo = !first.claims() ? 0 : timersReadUpTo();
    long server;
    String schema;
    WorkflowRows.ExecutionRead ahead = null;
    WorkflowRows.TimersAndOwners timers = null;
    String sql =
        begin
            + (execution.isPresent() ? "; " + rows.lockedExecutionQuery() : "")
            + (first.claims() ? "; " + rows.dueTimersAndOwnersQuery() : "")
            + (savepoint ? "; " + QueuedUnit.savepoint() : "");
    try (PreparedStatement lock = c.prepareStatement(sql)) {
      lock.setLong(1, lockKey);
      lock.setString(2, Long.toString(idleTimeoutMillis()));
      int next = 3;
      if (execution.isPresent()) {
        lock.setString(next++, execution.get());
      }
      if (first.claims()) {
        rows.bindDueTimersAndOwners(lock, next, timersUpTo, TIMERS_AHEAD, session.ownerId());
      }
      lock.execute();
      try (ResultSet rs = lock.getResultSet()) {
        rs.next();
        server = rs.getLong(3);
        schema = rs.getString(4);
      }
      if (execution.isPresent()) {
        lock.getMoreResults();
        try (ResultSet rs = lock.getResultSet()) {
          ahead = rows.executionFrom(execution.get(), rs);
        }
      }
      if (first.claims()) {
        lock.getMoreResults();
        timers = rows.dueTimersAndOwnersFrom(lock);
      }
    }
    rows.checkSchema(schema);
    if (settings.clientClock().isPresent()) {
      return new Began(settings.clientClock().get().wallMillis(), ahead, timers, timersUpTo);
    }
    serverClock.observe(server, before, System.currentTimeMillis());
    return new Began(server, ahead, timers, timersUpTo);
  }

  /**
   * A third of the heartbeat timeout, the interval at which a live JVM renews its owners: no batch
   * of a running JVM sits idle that long, and a stopped one releases the store's lock well before
   * its owner counts as dead.
   */
  private long idleTimeoutMillis() {
    return Math.max(1, settings.heartbeatTimeout().toMillis() / 3);
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
}
