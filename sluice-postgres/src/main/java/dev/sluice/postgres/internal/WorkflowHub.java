/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.jdbc.HeldWrite;
import dev.sluice.workflow.jdbc.WorkflowTables;
import dev.sluice.workflow.spi.Change;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * One workflow store (a data source, schema and prefix) as seen by this JVM: its sessions, their
 * owners' registrations on the {@link Listener}'s dedicated connection, and the wakes that reach
 * them, from this JVM's own commits and from other JVMs' NOTIFYs on the store's channel. At each
 * heartbeat it deletes the rows of other JVMs' owners that are dead (lock free or heartbeat
 * lapsed); a missing row proves an owner dead, so nothing is lost by deleting it, and the sessions
 * are woken once to take the dead owners' claims over.
 *
 * <p>Thread-safe.
 */
final class WorkflowHub implements Subscriber, OwnerHome {
  private static final Map<Key, WorkflowHub> OPEN = new HashMap<>();

  /** A data source (by identity: pools do not override equals) and tables. */
  private record Key(DataSource dataSource, Tables tables) {}

  private final Key key;
  private final PgWorkflowSettings settings;
  private final Listener listener;
  private final String channel;
  private final String token = OwnerIds.random();
  private final List<PgWorkflowSession> sessions = new CopyOnWriteArrayList<>();
  private final Announcements announcements;

  /** Renews lost owners, off the listener thread (a registration runs on it). */
  private final ScheduledExecutorService renewals;

  private int users;

  private WorkflowHub(Key key, PgWorkflowSettings settings, Listener listener) {
    this.key = key;
    this.settings = settings;
    this.listener = listener;
    this.channel = settings.tables().workflowChannel();
    this.announcements = new Announcements(settings, channel, token);
    this.renewals =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-postgres-workflow-owners");
              t.setDaemon(true);
              return t;
            });
  }

  /** Joins this JVM's view of the store, creating or checking its tables first. */
  static WorkflowHub attach(PgWorkflowSettings settings) {
    Key key = new Key(settings.dataSource(), settings.tables());
    synchronized (OPEN) {
      WorkflowHub hub = OPEN.get(key);
      if (hub == null) {
        ensureSchema(settings);
        Listener listener = Listener.acquire(settings.dataSource());
        hub = new WorkflowHub(key, settings, listener);
        try {
          listener.listen(hub.channel, hub);
          listener.requireSpareConnection();
        } catch (SQLException e) {
          hub.renewals.shutdown();
          hub.announcements.close();
          listener.unlisten(hub.channel);
          listener.release();
          throw PgFailures.of(settings.describe() + ": cannot listen for changes", e);
        }
        OPEN.put(key, hub);
      }
      hub.users++;
      return hub;
    }
  }

  private static void ensureSchema(PgWorkflowSettings settings) {
    PgWorkflowDialect dialect = new PgWorkflowDialect(settings.tables());
    try (Connection c = settings.dataSource().getConnection()) {
      c.setAutoCommit(false);
      try {
        WorkflowSchema.ensure(
            c, settings.tables(), new WorkflowTables(dialect, settings.tables().describe()));
        long before = System.currentTimeMillis();
        long server = PoolRows.serverMillis(c);
        ServerClock.of(settings.dataSource()).observe(server, before, System.currentTimeMillis());
        c.commit();
      } catch (SQLException | RuntimeException e) {
        BatchTransaction.rollbackQuietly(c, e);
        throw e;
      }
    } catch (SQLException e) {
      throw PgFailures.of(settings.describe() + ": cannot open", e);
    }
  }

  /** Registers a new owner: its lock on the listener's connection, then its row. */
  String register() {
    return listener.registerOwner(
        this, settings.heartbeatTimeout().toMillis(), settings.describe());
  }

  /**
   * Ends an owner: deletes its row and releases its lock, so it counts as dead, and has every
   * session of the store, here and in other JVMs, look again to take over what it held. Best
   * effort: if the dedicated connection is gone, so is the lock.
   */
  void drop(String owner) {
    try {
      listener.run(
          c -> {
            // Deleted here, not by the heartbeats: a lost owner is no longer among them.
            WorkflowOwners.delete(c, settings.tables(), owner);
            listener.heartbeats().drop(c, owner, false);
            notifyEveryone(c);
          });
    } catch (SQLException e) {
      // The lock went with the connection: other sessions find the owner dead.
    }
    wakeAll();
  }

  void join(PgWorkflowSession s) {
    sessions.add(s);
  }

  /** A session left: its owner is dropped and the hub released. */
  void leave(PgWorkflowSession s, String owner) {
    sessions.remove(s);
    drop(owner);
    release();
  }

  /** Gives up one use of the view; the last one stops listening. */
  void release() {
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(key);
    }
    listener.unlisten(channel);
    listener.release();
    renewals.shutdown();
    announcements.close();
  }

  /** Runs {@code task} on the renewal thread after {@code delayMillis}; dropped once closed. */
  void schedule(Runnable task, long delayMillis) {
    try {
      renewals.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // The last session left: nothing is left to renew.
    }
  }

  /** The ids of this JVM's owners of the store. */
  Set<String> localOwners() {
    Set<String> ids = new HashSet<>();
    for (PgWorkflowSession s : sessions) {
      ids.add(s.ownerId());
    }
    return ids;
  }

  /**
   * Commits a batch that made {@code changes}, with {@code last} (its last write, or null), and
   * tells other JVMs (see {@link Announcements#commit}).
   */
  void commit(Connection c, Set<Change> changes, HeldWrite last) throws SQLException {
    announcements.commit(c, changes, last);
  }

  /**
   * A batch that made {@code changes} may have committed although its answer was lost: this JVM's
   * sessions are told now, other JVMs' by a notice retried until it goes out.
   */
  void maybeCommitted(Set<Change> changes) {
    if (!changes.isEmpty()) {
      wake(Set.copyOf(changes));
      announcements.maybeCommitted(changes);
    }
  }

  /** NOTIFYs the store's channel on {@code c}: every other JVM's sessions look again. */
  void notifyEveryone(Connection c) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      st.setString(1, channel);
      st.setString(2, new WorkflowNotice(token, Change.ALL).text());
      st.execute();
    }
  }

  @Override
  public void onNotify(String payload) {
    WorkflowNotice notice = WorkflowNotice.parse(payload);
    if (!notice.writer().equals(token)) {
      wake(notice.changes());
    }
  }

  @Override
  public void wakeAll() {
    wake(Change.ALL);
  }

  /** Tells this JVM's sessions of the store what changed. */
  void wake(Set<Change> changes) {
    for (PgWorkflowSession s : sessions) {
      s.changed(changes);
    }
  }

  @Override
  public void probeDeadOwners(Connection c, Set<String> local) throws SQLException {
    if (WorkflowOwners.deleteDead(c, settings.tables(), local)) {
      wakeAll();
    }
  }

  @Override
  public String ownersTable() {
    return settings.tables().workflowOwners();
  }

  @Override
  public void insertOwner(Connection c, String owner, long lockKey, long timeoutMillis)
      throws SQLException {
    WorkflowOwners.insert(c, settings.tables(), owner, lockKey, timeoutMillis);
  }

  @Override
  public boolean relocked(Connection c, String owner) throws SQLException {
    return WorkflowOwners.relocked(c, settings.tables(), owner);
  }

  @Override
  public void ownerLost(String owner) {
    for (PgWorkflowSession s : sessions) {
      if (s.ownerId().equals(owner)) {
        schedule(() -> s.renewOwner(owner), 0);
      }
    }
  }
}
