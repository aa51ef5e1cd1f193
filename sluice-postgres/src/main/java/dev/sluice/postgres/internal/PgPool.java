/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.GroupCommitter;
import dev.sluice.spi.support.PendingOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;

/**
 * One pool as seen by this JVM through one data source: its owners (sessions) of this JVM, the
 * coordinator thread that applies their commands in batches, one transaction each ({@link
 * PoolBatches}), and the wakes that reach them, from this JVM's own commits and from other JVMs'
 * NOTIFYs.
 *
 * <p>Thread-safe. Callers never wait for the pool's row lock: they queue work for the coordinator.
 */
final class PgPool implements Subscriber, OwnerHome {
  private static final Map<Key, PgPool> OPEN = new HashMap<>();
  private static final int MAX_BATCH = 256;

  /** A data source (by identity: pools do not override equals), tables and pool name. */
  private record Key(DataSource dataSource, Tables tables, String pool) {}

  private final Key key;
  private final PgSettings settings;
  private final LimiterConfig config;
  private final PoolRows rows;
  private final Listener listener;
  private final String channel;
  private final String token = OwnerIds.random();
  private final LocalOwners owners;
  private final ForeignHolders holders = new ForeignHolders();
  private final PoolBatches batches;
  private final GroupCommitter<PoolBatches.Op<?>> commits;

  private int users;

  private PgPool(Key key, PgSettings settings, LimiterConfig config, Listener listener) {
    this.key = key;
    this.settings = settings;
    this.config = config;
    this.rows = new PoolRows(settings.tables(), settings.pool(), settings.describe());
    this.listener = listener;
    this.channel = settings.tables().channel(settings.pool());
    this.batches = new PoolBatches(this, settings, config, rows, token);
    this.commits = new GroupCommitter<>("sluice-postgres-" + settings.pool(), MAX_BATCH, batches);
    this.owners = new LocalOwners(settings.pool());
  }

  /** Runs a session's change action on the wake thread. */
  void dispatch(Runnable action) {
    owners.dispatch(action);
  }

  /** Joins this JVM's view of the pool, creating the tables and the pool's row if needed. */
  static PgPool attach(PgSettings settings, LimiterConfig config) {
    Key key = new Key(settings.dataSource(), settings.tables(), settings.pool());
    synchronized (OPEN) {
      PgPool pool = OPEN.get(key);
      if (pool == null) {
        createOrCheck(settings, config);
        Listener listener = Listener.acquire(settings.dataSource());
        pool = new PgPool(key, settings, config, listener);
        try {
          listener.listen(pool.channel, pool);
          listener.requireSpareConnection();
        } catch (SQLException e) {
          pool.commits.close();
          pool.owners.shutdown();
          listener.unlisten(pool.channel);
          listener.release();
          throw PgFailures.of(settings.describe() + ": cannot listen for changes", e);
        }
        OPEN.put(key, pool);
      } else if (!pool.config.equals(config)) {
        throw new ConfigMismatchException(settings.describe(), pool.config, config);
      }
      pool.users++;
      return pool;
    }
  }

  /** Brings the tables to this Sluice's version and creates or checks the pool's row. */
  private static void createOrCheck(PgSettings settings, LimiterConfig config) {
    PoolRows rows = new PoolRows(settings.tables(), settings.pool(), settings.describe());
    try (Connection c = settings.dataSource().getConnection()) {
      c.setAutoCommit(false);
      try {
        LimiterSchema.ensure(c, settings.tables());
        long before = System.currentTimeMillis();
        long server = PoolRows.serverMillis(c);
        ServerClock.of(settings.dataSource()).observe(server, before, System.currentTimeMillis());
        long now = settings.clientClock().map(TimeSource::wallMillis).orElse(server);
        rows.createOrCheck(c, config, now, settings.traceCapacity());
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

  /** Marks {@code owner} as a watcher of the pool, on the listener's connection. */
  void watch(String owner) {
    try {
      listener.run(c -> rows.watch(c, owner));
    } catch (SQLException e) {
      throw PgFailures.of(settings.describe() + ": cannot watch for changes", e);
    }
  }

  void join(PgSession s) {
    owners.join(s);
  }

  /**
   * An owner leaves: its row is deleted if it retired, its lock is released, and if it left without
   * retiring every other owner is woken, here and in other JVMs, so a command reclaims what it
   * held. The last user stops the coordinator and stops listening.
   */
  void leave(PgSession s, boolean retired) {
    owners.leave(s);
    String id = s.ownerId();
    try {
      listener.run(
          c -> {
            listener.heartbeats().drop(c, id, retired);
            if (!retired) {
              notifyEveryone(c);
            }
          });
    } catch (SQLException e) {
      // The connection is gone, and the lock with it: other owners reclaim what it held.
    }
    if (!retired) {
      owners.wakeAll();
    }
    release();
  }

  /** Gives up one use of the pool view; the last one closes it. */
  void release() {
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(key);
    }
    listener.deathWatch().forget(this);
    listener.unlisten(channel);
    listener.release();
    commits.close();
    owners.shutdown();
  }

  private void notifyEveryone(Connection c) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      st.setString(1, channel);
      st.setString(2, NotifyPayload.everyone(token).text());
      st.execute();
    }
  }

  <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
    PendingOutcome<R> f = new PendingOutcome<>();
    if (owners.isLost(command.owner())) {
      f.completeExceptionally(new OwnerLostException(settings.pool(), command.owner()));
      return f;
    }
    PoolBatches.Op<R> op = new PoolBatches.Op<>(command, f);
    if (commits.onCoordinator()) {
      // A continuation of this coordinator's own work: run it now, the queue would wait for us.
      // (Continuations of a failed batch run elsewhere, see PoolBatches, so a clean-up they send
      // cannot overtake a command queued before it.)
      batches.run(List.of(op));
    } else {
      commits.submit(op);
    }
    return f;
  }

  /** Applies a command and waits for it (on the coordinator's thread too: it runs at once). */
  <R> PoolOutcome<R> execute(PoolCommand<R> command) {
    return submit(command).join();
  }

  long appliedSequence() {
    return batches.sequence();
  }

  /** A NOTIFY on the pool's channel: wakes the owners it names, unless this view wrote it. */
  @Override
  public void onNotify(String text) {
    NotifyPayload p = NotifyPayload.parse(text);
    if (p.writer().equals(token)) {
      return;
    }
    if (p.everyone()) {
      owners.wakeAll();
    } else {
      owners.wake(p.owners());
    }
  }

  /**
   * The store declared one of this JVM's owners dead: its commands fail with {@link
   * OwnerLostException} from now on, and it is woken to learn of it.
   */
  @Override
  public void ownerLost(String owner) {
    owners.lose(owner);
  }

  boolean isLost(String owner) {
    return owners.isLost(owner);
  }

  /** An owner's heartbeat was renewed; see {@link LocalOwners#renewed}. */
  @Override
  public void renewed(String owner, long untilNanos) {
    owners.renewed(owner, untilNanos);
  }

  /** See {@link LocalOwners#surelyAlive}. */
  boolean surelyAlive(String owner, long nowNanos) {
    return owners.surelyAlive(owner, nowNanos);
  }

  /** The ids of this JVM's owners of the pool. */
  Set<String> localOwners() {
    return owners.ids();
  }

  /**
   * After a commit: while an owner of this JVM waits in the pool, the owners of other JVMs whose
   * leases it waits behind are watched, so that the moment one of them dies this JVM's owners are
   * woken to reclaim it ({@link DeathWatch}). On the coordinator thread only.
   */
  void watchHolders(PoolState state) {
    listener.deathWatch().want(this, holders.heldSince(state, owners.ids()), owners::wakeAll);
  }

  /** Wakes this JVM's owners among {@code concerned}; none if there is only one owner. */
  void wakeLocal(Set<String> concerned) {
    owners.wakeLocal(concerned);
  }

  @Override
  public void wakeAll() {
    owners.wakeAll();
  }

  @Override
  public String ownersTable() {
    return settings.tables().owners();
  }

  @Override
  public void insertOwner(Connection c, String owner, long lockKey, long timeoutMillis)
      throws SQLException {
    rows.registerOwner(c, owner, lockKey, timeoutMillis);
  }

  @Override
  public boolean relocked(Connection c, String owner) throws SQLException {
    return rows.relocked(c, owner);
  }

  /**
   * Wakes this JVM's owners of the pool if another owner of it is dead; they reclaim it. First ends
   * the batch sessions of JVMs whose owners lapsed, one of which may hold the pool's row lock and
   * would keep the reclaim waiting until that JVM runs again.
   */
  @Override
  public void probeDeadOwners(Connection c, Set<String> local) throws SQLException {
    if (rows.anyDeadOwner(c, local)) {
      rows.endLapsedSessions(c, local);
      wakeAll();
    }
  }

  String describe() {
    return settings.describe();
  }

  /** The failure of a command that reached a closed pool view. */
  BackendFailureException closedFailure() {
    return new BackendFailureException(settings.describe() + " is closed in this JVM", null);
  }
}
