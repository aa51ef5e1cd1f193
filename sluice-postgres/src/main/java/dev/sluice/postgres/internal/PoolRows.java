/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.FormatCheck;
import dev.sluice.spi.support.PoolStateCodec;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The SQL of one pool's rows: its creation and check, the locked read and liveness check that start
 * a batch, the write and notify that end it, and owner registration. Every method runs in the
 * connection's current transaction.
 *
 * <p>Thread-safe (immutable); the connections it is given are not shared.
 */
final class PoolRows {
  /** The one encoding of the state row: {@link PoolStateCodec}'s. */
  static final String FORMAT = "sluice-limiter-pool/2";

  static final String SERVER_MILLIS = "floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

  private final Tables tables;
  private final String pool;
  private final String describe;
  private final String lockRead;
  private final String liveness;
  private final String write;
  private final String lockOnly;

  PoolRows(Tables tables, String pool, String describe) {
    this.tables = tables;
    this.pool = pool;
    this.describe = describe;
    // The idle timeout is set for the transaction only, in the statement that takes the lock, so it
    // costs no round trip of its own.
    // The settings are evaluated before the row is locked, so the lock timeout bounds this very
    // statement's wait; the shared advisory lock marks the row lock's holder as this JVM's.
    this.lockRead =
        "SELECT version, CASE WHEN version = ? THEN NULL ELSE state END,"
            + " set_config('idle_in_transaction_session_timeout', ?, true),"
            + " set_config('lock_timeout', ?, true), pg_advisory_xact_lock_shared(?) FROM "
            + tables.pools()
            + " WHERE pool = ? FOR UPDATE";
    // Both lists come from one snapshot taken after the pool's row lock, so an owner that
    // registered before its first command is always among the registered ones.
    this.liveness =
        "SELECT "
            + SERVER_MILLIS
            + ", ARRAY(SELECT owner_id FROM "
            + tables.owners()
            + " WHERE pool = ?), ARRAY(SELECT owner_id FROM "
            + tables.owners()
            + " WHERE pool = ? AND (expires_at < clock_timestamp()"
            + " OR (owner_id <> ALL(?) AND "
            + OwnerRows.LOCK_FREE
            + "))), ARRAY(SELECT owner_id FROM "
            + tables.owners()
            + " WHERE pool = ? AND watching)";
    this.write =
        "WITH w AS (UPDATE "
            + tables.pools()
            + " SET version = ?, state = ? WHERE pool = ? AND ? RETURNING 1),"
            + " d AS (DELETE FROM "
            + tables.owners()
            + " WHERE pool = ? AND owner_id = ANY(?) RETURNING 1)"
            + " SELECT txid_current(), CASE WHEN ? THEN (SELECT 1 FROM pg_notify(?, ?)) END";
    this.lockOnly = "SELECT 1 FROM " + tables.pools() + " WHERE pool = ? FOR UPDATE";
  }

  /** The server's time now, in epoch milliseconds. */
  static long serverMillis(Connection c) throws SQLException {
    try (PreparedStatement st = c.prepareStatement("SELECT " + SERVER_MILLIS);
        ResultSet rs = st.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Creates the pool's row if it is missing, then checks its format and configuration.
   *
   * @throws StoreFormatException if the row is of another format or its configuration unreadable
   * @throws ConfigMismatchException if the pool has another configuration
   */
  void createOrCheck(Connection c, LimiterConfig config, long now, int traceCapacity)
      throws SQLException {
    PoolState fresh = PoolState.create(config, now, traceCapacity);
    try (PreparedStatement insert =
        c.prepareStatement(
            "INSERT INTO "
                + tables.pools()
                + " (pool, format, config, version, state) VALUES (?, ?, ?, 1, ?)"
                + " ON CONFLICT (pool) DO NOTHING")) {
      insert.setString(1, pool);
      insert.setString(2, FORMAT);
      insert.setString(3, config.normalizedForm());
      insert.setBytes(4, PoolStateCodec.write(fresh, 0, fresh.trace().entries()));
      insert.executeUpdate();
    }
    try (PreparedStatement read =
        c.prepareStatement("SELECT format, config FROM " + tables.pools() + " WHERE pool = ?")) {
      read.setString(1, pool);
      try (ResultSet rs = read.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException(describe + ": its row vanished while it was opened");
        }
        FormatCheck.require(describe, rs.getString(1), List.of(FORMAT));
        checkConfig(rs.getString(2), config);
      }
    }
  }

  private void checkConfig(String storedText, LimiterConfig config) {
    LimiterConfig stored;
    try {
      stored = LimiterConfig.parse(storedText);
    } catch (RuntimeException e) {
      throw new StoreFormatException(
          describe + " holds an unreadable configuration: " + e.getMessage(), e);
    }
    if (!stored.equals(config)) {
      throw new ConfigMismatchException(describe, stored, config);
    }
  }

  /**
   * The row as read under its lock: its version, and its state unless it is still the known one.
   */
  record Locked(long version, byte[] state) {}

  /**
   * How a batch starts: the row as read under its lock, then the owners' liveness as seen after it.
   */
  record Start(Locked locked, Liveness liveness) {}

  /**
   * Locks the pool's row for the transaction, reads it, then reads the owners' liveness, in one
   * round trip: the two statements go to the server together, and the second takes its snapshot
   * only once the first holds the lock, so an owner registered before its first command is always
   * among the registered ones.
   *
   * <p>The server ends the session if the transaction then sits idle for {@code idleMillis} (its
   * JVM stopped or cut off between two statements), so that the row lock it holds stops no other
   * JVM for longer; a JVM stopped in the middle of sending a statement is not idle by the server's
   * count, and is ended by the others once its heartbeat lapsed ({@link #endLapsedSessions}). The
   * wait for the lock fails after {@code lockWaitMillis} (as a transient failure), so no caller
   * waits on a wedged holder for ever.
   *
   * <p>The locks of {@code local} owners are not tried: their JVM, which is this one, lives, and
   * while its dedicated connection is being replaced their locks are free for a moment. Their
   * heartbeats still count.
   */
  Start lockAndReadLiveness(
      Connection c, long knownVersion, long idleMillis, long lockWaitMillis, Set<String> local)
      throws SQLException {
    try (PreparedStatement st = c.prepareStatement(lockRead + ";\n" + liveness)) {
      st.setLong(1, knownVersion);
      st.setString(2, Long.toString(idleMillis));
      st.setString(3, Long.toString(lockWaitMillis));
      st.setLong(4, OwnerIds.markKey());
      st.setString(5, pool);
      st.setString(6, pool);
      st.setString(7, pool);
      st.setArray(8, c.createArrayOf("text", local.toArray()));
      st.setString(9, pool);
      st.execute();
      Locked locked;
      try (ResultSet rs = st.getResultSet()) {
        if (!rs.next()) {
          throw new SQLException(describe + ": its row is missing (was it deleted?)", "P0002");
        }
        locked = new Locked(rs.getLong(1), rs.getBytes(2));
      }
      if (!st.getMoreResults()) {
        throw new SQLException(describe + ": the liveness read returned nothing");
      }
      try (ResultSet rs = st.getResultSet()) {
        rs.next();
        Liveness live =
            new Liveness(
                rs.getLong(1),
                strings(rs.getArray(2)),
                strings(rs.getArray(3)),
                strings(rs.getArray(4)));
        return new Start(locked, live);
      }
    }
  }

  /**
   * The server's time and which owners are registered and which of them are dead.
   *
   * @param serverMillis the server's time
   * @param registered owners with a row
   * @param dead registered owners whose lock is free or whose heartbeat lapsed; their locks are
   *     held by this transaction until it ends
   * @param watchers registered owners that watch every change of the pool
   */
  record Liveness(
      long serverMillis, Set<String> registered, Set<String> dead, Set<String> watchers) {}

  /** Marks {@code owner} as a watcher: every commit that changes the pool names it. */
  void watch(Connection c, String owner) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "UPDATE " + tables.owners() + " SET watching = true WHERE owner_id = ?")) {
      st.setString(1, owner);
      if (st.executeUpdate() != 1) {
        throw new SQLException(describe + ": owner " + owner + " has no row to mark as a watcher");
      }
    }
  }

  /**
   * Writes the state (if {@code state} is not null), deletes the rows of reclaimed owners and
   * notifies the pool's channel (if {@code payload} is not null), in one statement.
   *
   * @return the transaction's id, with which {@link #committed} tells after a lost connection
   *     whether its commit happened
   */
  long write(Connection c, long version, byte[] state, Set<String> reclaimed, String payload)
      throws SQLException {
    try (PreparedStatement st = c.prepareStatement(write)) {
      st.setLong(1, version);
      st.setBytes(2, state == null ? new byte[0] : state);
      st.setString(3, pool);
      st.setBoolean(4, state != null);
      st.setString(5, pool);
      st.setArray(6, c.createArrayOf("text", reclaimed.toArray()));
      st.setBoolean(7, payload != null);
      st.setString(8, tables.channel(pool));
      st.setString(9, payload == null ? "" : payload);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Whether the transaction {@code txid}, whose commit's answer was lost with its connection,
   * committed. Waits for the pool's row lock first: the transaction held it until it ended, so once
   * the lock is had its fate is settled. Runs in the caller's transaction, which must not
   * auto-commit and which it rolls back.
   */
  boolean committed(Connection c, long txid) throws SQLException {
    try (PreparedStatement lock = c.prepareStatement(lockOnly);
        PreparedStatement status = c.prepareStatement("SELECT txid_status(?)")) {
      lock.setString(1, pool);
      lock.executeQuery().close();
      status.setLong(1, txid);
      try (ResultSet rs = status.executeQuery()) {
        rs.next();
        return "committed".equals(rs.getString(1));
      }
    } finally {
      c.rollback();
    }
  }

  /** Registers an owner whose advisory lock its JVM already holds. */
  void registerOwner(Connection c, String owner, long lockKey, long timeoutMillis)
      throws SQLException {
    OwnerRows.insert(c, tables.owners(), pool, owner, lockKey, timeoutMillis);
  }

  /** See {@link OwnerRows#relocked}. */
  boolean relocked(Connection c, String owner) throws SQLException {
    return OwnerRows.relocked(c, tables.owners(), owner);
  }

  /**
   * Whether another JVM's owner of the pool is dead: its lock is free (a lock probed here is held
   * only for the statement) or its heartbeat lapsed. Owners in {@code local} are left out.
   */
  boolean anyDeadOwner(Connection c, Set<String> local) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT 1 FROM "
                + tables.owners()
                + " WHERE pool = ? AND owner_id <> ALL(?)"
                + " AND (expires_at < clock_timestamp() OR ("
                + OwnerRows.LOCK_FREE
                + ")) LIMIT 1")) {
      st.setString(1, pool);
      st.setArray(2, c.createArrayOf("text", local.toArray()));
      try (ResultSet rs = st.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Ends the sessions in which JVMs whose owners of the pool lapsed run a batch transaction (found
   * by the lock {@link OwnerIds#markKey()} of their JVM): a JVM stopped while sending a statement
   * holds the pool's row lock with no timeout of the server's running, and no reclaim can take the
   * row until that session ends. This JVM's sessions are spared. Without the right to signal those
   * backends (another role) it does nothing, and the lock timeout of the waiting batches decides.
   *
   * @return how many sessions were ended
   */
  int endLapsedSessions(Connection c, Set<String> local) throws SQLException {
    Set<Long> marks = new HashSet<>();
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT owner_id FROM "
                + tables.owners()
                + " WHERE pool = ? AND owner_id <> ALL(?) AND expires_at < clock_timestamp()")) {
      st.setString(1, pool);
      st.setArray(2, c.createArrayOf("text", local.toArray()));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          marks.add(OwnerIds.markKeyOf(rs.getString(1)));
        }
      }
    }
    marks.remove(OwnerIds.markKey());
    if (marks.isEmpty()) {
      return 0;
    }
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM (SELECT DISTINCT pid"
                + " FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1"
                + " AND ((classid::bigint << 32) | objid::bigint) = ANY(?)"
                + " AND pid <> pg_backend_pid()) p")) {
      st.setArray(1, c.createArrayOf("bigint", marks.toArray()));
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) {
        return 0; // insufficient_privilege
      }
      throw e;
    }
  }

  private static Set<String> strings(Array array) throws SQLException {
    Set<String> out = new HashSet<>();
    if (array != null) {
      for (Object o : (Object[]) array.getArray()) {
        out.add((String) o);
      }
    }
    return out;
  }
}
