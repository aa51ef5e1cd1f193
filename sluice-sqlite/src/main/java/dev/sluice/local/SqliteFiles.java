/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The SQLite conventions every store in a directory follows: a {@code sluice_meta} table of
 * key/value pairs holding at least the format id ({@link StoreFile} opens and creates the file).
 *
 * <p>Thread-safe (stateless); the connections it opens are not.
 */
public final class SqliteFiles {
  /** The words of the error {@link StoreFile} gives for another program's database. */
  public static final String NOT_SLUICE = "not a Sluice store";

  private SqliteFiles() {}

  /** Whether the database has any table yet. */
  public static boolean hasSchema(Connection db) throws SQLException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }

  /** Whether the database has a table of this name. */
  public static boolean hasTable(Connection db, String table) throws SQLException {
    try (PreparedStatement st =
        db.prepareStatement(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?")) {
      st.setString(1, table);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() && rs.getInt(1) > 0;
      }
    }
  }

  /** A value of {@code sluice_meta}, or {@code null} if it or the table is missing. */
  public static String meta(Connection db, String key) throws SQLException {
    try (PreparedStatement st =
        db.prepareStatement("SELECT value FROM sluice_meta WHERE key = ?")) {
      st.setString(1, key);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      if (e.getMessage() != null && e.getMessage().contains("no such table")) {
        return null;
      }
      throw e;
    }
  }

  /** Closes a connection, ignoring failures: used on paths that already report one. */
  public static void closeQuietly(Connection db) {
    if (db != null) {
      try {
        db.close();
      } catch (SQLException e) {
        // Nothing more to do with a connection that is being abandoned.
      }
    }
  }
}
