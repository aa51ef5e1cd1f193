/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.support.FormatCheck;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The schema-version table of a schema and prefix: one row per component (the limiter's tables, the
 * workflow tables), read and written under a transaction-scoped advisory lock, so two JVMs that
 * open a store at once create it once and a refusal, rolled back, changes nothing.
 *
 * <p>Thread-safe (stateless); every method runs in the caller's transaction, which must not
 * auto-commit.
 */
final class SchemaVersions {
  private static final Log LOG = Logs.of(SchemaVersions.class);

  private SchemaVersions() {}

  /**
   * Takes the schema lock of {@code t} for the transaction and reads a component's version.
   *
   * @param what names the component's tables in messages
   * @param current the version this Sluice writes
   * @return the recorded version, 0 if none
   * @throws dev.sluice.StoreFormatException if the tables are of a newer or unknown version, naming
   *     both versions
   */
  static int lockAndRead(Connection c, Tables t, String component, String what, int current)
      throws SQLException {
    try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
      lock.setLong(1, t.schemaLockKey());
      lock.execute();
    }
    if (!exists(c, t)) {
      return 0;
    }
    try (PreparedStatement read =
        c.prepareStatement("SELECT version FROM " + t.schemaVersions() + " WHERE component = ?")) {
      read.setString(1, component);
      try (ResultSet rs = read.executeQuery()) {
        if (!rs.next()) {
          return 0;
        }
        return FormatCheck.requireVersion(what, rs.getString(1), current);
      }
    }
  }

  /** Creates the schema and the schema-version table if they are missing. */
  static void createTable(Statement st, Tables t) throws SQLException {
    st.execute("CREATE SCHEMA IF NOT EXISTS " + t.quotedSchema());
    st.execute(
        "CREATE TABLE IF NOT EXISTS "
            + t.schemaVersions()
            + " (component text PRIMARY KEY, version integer NOT NULL)");
  }

  /** Records a component's version, which was {@code from} (0 for new tables) before. */
  static void record(Connection c, Tables t, String component, int from, int version)
      throws SQLException {
    if (from == 0) {
      LOG.info(
          "creating the Sluice {} tables in {} at version {}", component, t.describe(), version);
    } else {
      LOG.info(
          "migrating the Sluice {} tables in {} from version {} to {}",
          component,
          t.describe(),
          from,
          version);
    }
    try (PreparedStatement record =
        c.prepareStatement(
            "INSERT INTO "
                + t.schemaVersions()
                + " (component, version) VALUES (?, ?)"
                + " ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version")) {
      record.setString(1, component);
      record.setInt(2, version);
      record.executeUpdate();
    }
  }

  private static boolean exists(Connection c, Tables t) throws SQLException {
    try (PreparedStatement find =
        c.prepareStatement(
            "SELECT 1 FROM pg_catalog.pg_class k JOIN pg_catalog.pg_namespace n"
                + " ON n.oid = k.relnamespace WHERE n.nspname = ? AND k.relname = ?")) {
      find.setString(1, t.schema());
      find.setString(2, t.schemaVersionsName());
      try (ResultSet rs = find.executeQuery()) {
        return rs.next();
      }
    }
  }
}
