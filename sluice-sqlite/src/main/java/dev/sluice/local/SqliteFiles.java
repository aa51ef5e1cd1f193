/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.sqlite.JDBC;

/**
 * The SQLite conventions every store in a directory follows: the database file created with the
 * directory's file mode, WAL journaling, the chosen {@code synchronous} level, and a {@code
 * sluice_meta} table of key/value pairs holding at least the format id.
 *
 * <p>Thread-safe (stateless); the connections it opens are not.
 */
public final class SqliteFiles {
  /** The words of the error {@link #open} gives for another program's database. */
  public static final String NOT_SLUICE = "not a Sluice store";

  private SqliteFiles() {}

  /**
   * Opens {@code name} in {@code dir}, creating the file with the directory's mode if missing.
   *
   * @param fullSync {@code synchronous=FULL} rather than {@code NORMAL}
   * @throws SQLException if SQLite refuses the file
   * @throws IOException if the file cannot be created
   */
  public static Connection open(PoolDirectory dir, String name, boolean fullSync)
      throws SQLException, IOException {
    Path file = dir.file(name);
    dir.createFile(file);
    // The driver directly, not DriverManager: its first use scans every jar on the class path for
    // drivers, which is a tenth of a short-lived command's run.
    Connection db = JDBC.createConnection("jdbc:sqlite:" + file, new Properties());
    try (Statement st = db.createStatement()) {
      // Checked before the journal mode is set, which would rewrite another program's file header.
      if (hasSchema(db) && !hasTable(db, "sluice_meta")) {
        throw new SQLException(
            NOT_SLUICE + "; it holds tables but no sluice_meta, it was left as is");
      }
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("PRAGMA synchronous=" + (fullSync ? "FULL" : "NORMAL"));
      return db;
    } catch (SQLException e) {
      closeQuietly(db);
      throw e;
    }
  }

  /** Whether the database has any table yet. */
  public static boolean hasSchema(Connection db) throws SQLException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }

  private static boolean hasTable(Connection db, String table) throws SQLException {
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
