/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The owner-liveness SQL that limiter pools and workflow stores share: an owner's row records the
 * server start ({@code pg_postmaster_start_time()}) under which its JVM took its advisory lock, and
 * a free lock proves the owner dead only if it was taken since the current start. A restart frees
 * every lock at once, which must not pass for the death of every JVM: until a JVM reconnects and
 * takes its locks again ({@link #relocked}) its heartbeat alone decides. Both owners' tables have
 * the columns {@code owner_id}, {@code lock_key}, {@code expires_at} and {@code locked_in}.
 *
 * <p>Thread-safe (stateless); each method runs on the caller's connection.
 */
final class OwnerRows {
  /**
   * SQL, true when an owner's lock proves it dead: it is free, and the owner took it since the
   * server's current start. The lock tried is held by the transaction until it ends. Rows without a
   * recorded start (written by an older Sluice) count as taken since.
   */
  static final String LOCK_FREE =
      "(locked_in IS NULL OR locked_in = pg_postmaster_start_time())"
          + " AND pg_try_advisory_xact_lock(lock_key)";

  private OwnerRows() {}

  /**
   * Inserts a new owner's row, whose lock its JVM holds already, its heartbeat lasting {@code
   * timeoutMillis} by the server's clock.
   *
   * @param table the qualified owners' table
   * @param pool the pool of a limiter owner, or {@code null} for a table without a pool column
   */
  static void insert(
      Connection c, String table, String pool, String owner, long lockKey, long timeoutMillis)
      throws SQLException {
    String poolColumn = pool == null ? "" : ", pool";
    String poolValue = pool == null ? "" : ", ?";
    try (PreparedStatement st =
        c.prepareStatement(
            "INSERT INTO "
                + table
                + " (owner_id, lock_key, expires_at, locked_in"
                + poolColumn
                + ") VALUES (?, ?, clock_timestamp() + ? * interval '1 millisecond',"
                + " pg_postmaster_start_time()"
                + poolValue
                + ")")) {
      st.setString(1, owner);
      st.setLong(2, lockKey);
      st.setLong(3, timeoutMillis);
      if (pool != null) {
        st.setString(4, pool);
      }
      st.executeUpdate();
    }
  }

  /**
   * Whether an owner's row is still there after its JVM took its lock again on a new connection; if
   * so it records that the lock was taken under the server's current start.
   */
  static boolean relocked(Connection c, String table, String owner) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "UPDATE " + table + " SET locked_in = pg_postmaster_start_time() WHERE owner_id = ?")) {
      st.setString(1, owner);
      return st.executeUpdate() == 1;
    }
  }
}
