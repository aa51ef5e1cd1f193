/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.BackendFailureException;
import dev.sluice.StoreFormatException;
import dev.sluice.TimeSource;
import dev.sluice.local.GateLock;
import dev.sluice.local.LocalCommit;
import dev.sluice.local.Owner;
import dev.sluice.local.OwnerWatches;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.Pulse;
import dev.sluice.local.PulseWatcher;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.local.Wakeups;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.workflow.jdbc.JdbcWorkflowTransaction;
import dev.sluice.workflow.jdbc.QueuedUnit;
import dev.sluice.workflow.jdbc.WorkflowRows;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.WorkflowSession;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One runtime's owner of a SQLite workflow store: its own connection, an owner registration whose
 * lock proves its death, a watch on the store's pulse (armed before the session's first read, so no
 * later pulse is missed) and watches on the sockets of the owners whose claims it waits for.
 *
 * <p>Thread-safe: units of work of every session of this JVM on the directory are serialized by the
 * gate, which {@link #transact} holds; other processes wait for it in the kernel.
 */
final class SqliteWorkflowSession implements WorkflowSession {
  private static final AtomicLong PULSES = new AtomicLong();
  private static final int SQLITE_CORRUPT = 11;
  private static final int SQLITE_NOTADB = 26;
  private static final int MAX_BATCH = 64;

  private final PoolDirectory dir;
  private final GateLock gate;
  private final Connection db;
  private final WorkflowRows rows;
  private final Owner owner;
  private final TimeSource clock;
  private final AutoCloseable pulseWatch;
  private final OwnerWatches watches;
  private final LocalCommit local;
  private final GroupCommitter<QueuedUnit<?>> commits;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Consumer<Set<Change>> onChange;

  private SqliteWorkflowSession(
      PoolDirectory dir,
      GateLock gate,
      Connection db,
      WorkflowRows rows,
      Owner owner,
      TimeSource clock) {
    this.dir = dir;
    this.gate = gate;
    this.db = db;
    this.rows = rows;
    this.owner = owner;
    this.clock = clock;
    this.watches = new OwnerWatches(dir, suspect -> changed(Change.ALL));
    try {
      this.local = new LocalCommit(dir, db);
    } catch (SQLException e) {
      throw failure(e);
    }
    this.commits =
        new GroupCommitter<>("sluice-workflow-store-" + owner.id(), MAX_BATCH, new Batches());
    AutoCloseable watch;
    try {
      // Each kind of change has its own pulse file: another process's commit says what it made.
      watch = PulseWatcher.instance().watchFiles(dir, this::pulsed);
    } catch (RuntimeException e) {
      commits.close();
      throw e;
    }
    this.pulseWatch = watch;
  }

  static SqliteWorkflowSession open(PoolDirectory dir, TimeSource clock, boolean fullSync) {
    // A refused store is left as it was found: checked before the gate file and subdirectories.
    try {
      StoreFile.precheck(dir, WorkflowSchema.FILE, where(dir), WorkflowSchema.schema(dir));
    } catch (SQLException e) {
      throw unreadable(dir, e);
    } catch (IOException e) {
      throw new BackendFailureException(where(dir) + ": cannot open: " + e.getMessage(), e);
    }
    dir.createLayout();
    GateLock gate;
    try {
      gate = GateLock.open(dir);
    } catch (IOException e) {
      throw new BackendFailureException(
          "workflow store " + dir + ": cannot open gate.lock: " + e.getMessage(), e);
    }
    Connection db = null;
    try {
      WorkflowRows rows;
      try (GateLock.Hold h = gate.hold()) {
        db =
            StoreFile.open(
                dir, WorkflowSchema.FILE, where(dir), fullSync, WorkflowSchema.schema(dir));
        WorkflowSchema.migrateIfOlder(dir, db);
        rows = new WorkflowRows(db, dir.toString(), SqliteWorkflowDialect.INSTANCE);
      } catch (SQLException e) {
        throw unreadable(dir, e);
      } catch (IOException e) {
        throw new BackendFailureException(
            "workflow store " + dir.file(WorkflowSchema.FILE) + ": cannot open: " + e.getMessage(),
            e);
      }
      Owner owner;
      try {
        owner = Owner.create(dir);
      } catch (IOException e) {
        throw new BackendFailureException(
            "workflow store " + dir + ": cannot register an owner: " + e.getMessage(), e);
      }
      try {
        return new SqliteWorkflowSession(dir, gate, db, rows, owner, clock);
      } catch (RuntimeException e) {
        owner.close();
        throw e;
      }
    } catch (RuntimeException e) {
      SqliteFiles.closeQuietly(db);
      closeQuietly(gate);
      throw e;
    }
  }

  /**
   * A file SQLite cannot read as a database, or one that is not a Sluice store, is a format error;
   * anything else (busy, permissions, a full disk) is a failure to reach the store.
   */
  private static RuntimeException unreadable(PoolDirectory dir, SQLException e) {
    int code = e.getErrorCode() & 0xff;
    boolean format =
        code == SQLITE_CORRUPT
            || code == SQLITE_NOTADB
            || String.valueOf(e.getMessage()).contains(SqliteFiles.NOT_SLUICE);
    String where = where(dir);
    if (format) {
      return new StoreFormatException(
          where
              + " is not a readable Sluice workflow store ("
              + e.getMessage()
              + "); nothing was changed",
          e);
    }
    return new BackendFailureException(where + ": cannot open: " + e.getMessage(), e);
  }

  @Override
  public String ownerId() {
    return owner.id();
  }

  /**
   * Runs {@code unit} in the next batch and waits for it without reacting to interrupts (the
   * interrupt status is kept): the batch runs on the coordinator, so the unit's work cannot be
   * abandoned half-way by its caller.
   */
  @Override
  public <R> R transact(Unit<R> unit) {
    if (closed.get()) {
      throw closedException();
    }
    if (commits.onCoordinator()) {
      // A unit that starts another (user code inside it calling the store) would wait for itself,
      // holding the gate every process of the store needs.
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
  }

  /**
   * Runs a batch of units in one transaction under the gate, each inside its own savepoint: a unit
   * that throws loses only its own writes and gets its exception; an SQL failure fails the whole
   * batch, nothing written.
   */
  private void runBatch(List<QueuedUnit<?>> units) {
    Wakeups.record();
    LocalCommit.Written written;
    AtomicReference<Set<Change>> changes = new AtomicReference<>(Set.of());
    GateLock.Hold hold;
    try {
      hold = gate.hold();
    } catch (RuntimeException e) {
      throw failure(e);
    }
    try (hold;
        Statement st = db.createStatement()) {
      written = local.run(hold, () -> runUnits(st, units, changes));
    } catch (SQLException | IOException e) {
      throw failure(e);
    }
    units.forEach(QueuedUnit::complete);
    if (written.wrote()) {
      changed(changes.get());
    }
  }

  /** Runs each unit inside its own savepoint of the batch's transaction. */
  private LocalCommit.Written runUnits(
      Statement st, List<QueuedUnit<?>> units, AtomicReference<Set<Change>> changes)
      throws SQLException {
    rows.checkSchema();
    Set<Change> made =
        QueuedUnit.runAll(
            st,
            units,
            () ->
                new JdbcWorkflowTransaction(rows, clock.wallMillis(), owner.id(), this::provenDead),
            this::failure);
    changes.set(Set.copyOf(made));
    return !made.isEmpty()
        ? LocalCommit.Written.pulsing(
            owner.id() + "-" + PULSES.incrementAndGet(), ChangePulses.files(made))
        : LocalCommit.Written.NOTHING;
  }

  private IllegalStateException closedException() {
    return new IllegalStateException("workflow store session " + owner.id() + " is closed");
  }

  private BackendFailureException failure(Throwable e) {
    return new BackendFailureException(
        "workflow store " + dir + ": unit of work failed, nothing was written: " + e.getMessage(),
        e);
  }

  /**
   * Proves an owner dead under the gate. An owner still alive in another process is watched from
   * then on, so that its death wakes this session: a runtime asks about the owners whose claims it
   * could take over.
   */
  boolean provenDead(String ownerId) {
    if (ownerId.equals(owner.id())) {
      return closed.get();
    }
    if (watches.check(ownerId)) {
      return true;
    }
    watches.watch(ownerId);
    return false;
  }

  private void pulsed(PulseWatcher.Pulsed pulsed) {
    Set<Change> changes = ChangePulses.changes(pulsed);
    if (!changes.isEmpty()) {
      changed(changes);
    }
  }

  private void changed(Set<Change> changes) {
    Consumer<Set<Change>> action = onChange;
    if (action != null && !closed.get()) {
      action.accept(changes);
    }
  }

  @Override
  public void onChange(Consumer<Set<Change>> onChange) {
    this.onChange = onChange;
  }

  /**
   * Retires the owner and pulses, so the store's other runtimes (in this JVM too, whose owners
   * share no socket watch) look again and take over what it still claims.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    // Units queued before the close still run; later ones are refused by transact.
    commits.close();
    closeQuietly(pulseWatch);
    watches.close();
    try (GateLock.Hold h = gate.hold()) {
      owner.close();
      try {
        Pulse.write(dir, owner.id() + "-closed");
      } catch (IOException e) {
        // The owner's socket closed too; watchers in other processes still wake.
      }
      SqliteFiles.closeQuietly(db);
    }
    closeQuietly(gate);
  }

  private static String where(PoolDirectory dir) {
    return "workflow store " + dir.file(WorkflowSchema.FILE);
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        // Best effort: the process exit releases it anyway.
      }
    }
  }

  @Override
  public String toString() {
    return "SqliteWorkflowSession[" + dir + ", owner " + owner.id() + "]";
  }
}
