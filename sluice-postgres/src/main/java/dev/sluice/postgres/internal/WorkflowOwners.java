/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * The SQL of the workflow store's owners' table: one row per live owner, with its advisory lock key
 * and its heartbeat's end by the server's clock, and the server start under which its lock was
 * taken. An owner is dead when its row is gone, its heartbeat lapsed or its lock is free since it
 * was taken under the current start ({@link OwnerRows#LOCK_FREE}, the limiter owners' rule too); a
 * missing row proves it, so a dead owner's row may be deleted at any time without bringing it back.
 *
 * <p>Thread-safe (stateless); each method runs on the caller's connection.
 */
final class WorkflowOwners {
  private WorkflowOwners() {}

  /** Inserts a new owner's row; its JVM holds its lock already. */
  static void insert(Connection c, Tables t, String owner, long lockKey, long timeoutMillis)
      throws SQLException {
    OwnerRows.insert(c, t.workflowOwners(), null, owner, lockKey, timeoutMillis);
  }

  /** See {@link OwnerRows#relocked}. */
  static boolean relocked(Connection c, Tables t, String owner) throws SQLException {
    return OwnerRows.relocked(c, t.workflowOwners(), owner);
  }

  /** Deletes an owner's row: it counts as dead from the commit on. */
  static void delete(Connection c, Tables t, String owner) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement("DELETE FROM " + t.workflowOwners() + " WHERE owner_id = ?")) {
      st.setString(1, owner);
      st.executeUpdate();
    }
  }

  /**
   * Whether an owner is proven dead, inside the caller's transaction: a lock found free is taken
   * until the transaction ends. The lock of an owner of this JVM ({@code local}) is not tried: its
   * JVM lives, and while the dedicated connection is replaced the lock is free for a moment.
   */
  static boolean dead(Connection c, Tables t, String owner, boolean local) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT NOT EXISTS (SELECT 1 FROM "
                + t.workflowOwners()
                + " WHERE owner_id = ? AND expires_at >= clock_timestamp()"
                + " AND CASE WHEN ? THEN true ELSE NOT ("
                + OwnerRows.LOCK_FREE
                + ") END)")) {
      st.setString(1, owner);
      st.setBoolean(2, local);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  /**
   * {@link #dead} as an SQL expression over the owner in {@code ownerColumn}, with one {@code ?}:
   * the array of this JVM's owners, whose locks are not tried. A lock found free is taken until the
   * transaction ends, as {@link #dead} takes it.
   */
  static String deadOf(Tables t, String ownerColumn) {
    return "NOT EXISTS (SELECT 1 FROM "
        + t.workflowOwners()
        + " WHERE owner_id = "
        + ownerColumn
        + " AND expires_at >= clock_timestamp()"
        + " AND CASE WHEN "
        + ownerColumn
        + " = ANY(?) THEN true ELSE NOT ("
        + OwnerRows.LOCK_FREE
        + ") END)";
  }

  /**
   * Deletes the rows of dead owners other than {@code local} (a lock probed here is held only for
   * the statement).
   *
   * @return whether there was one
   */
  static boolean deleteDead(Connection c, Tables t, Set<String> local) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "DELETE FROM "
                + t.workflowOwners()
                + " WHERE owner_id <> ALL(?)"
                + " AND (expires_at < clock_timestamp() OR ("
                + OwnerRows.LOCK_FREE
                + "))")) {
      st.setArray(1, c.createArrayOf("text", local.toArray()));
      return st.executeUpdate() > 0;
    }
  }
}
