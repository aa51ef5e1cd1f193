/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.jdbc.WorkflowTables;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The workflow tables in PostgreSQL and their version, recorded as the {@code workflow} component
 * of the schema-version table that the limiter's tables share: the JDBC core's tables ({@link
 * WorkflowTables}, with the prefix) and the owners' table. A store finds them at the version this
 * Sluice writes, migrates an older version forward, or refuses a newer one with a {@link
 * dev.sluice.StoreFormatException} naming both versions; all in the caller's transaction under the
 * schema lock, so two JVMs create the tables once and a refusal changes nothing.
 *
 * <p>Thread-safe (stateless).
 */
final class WorkflowSchema {
  /** The component the workflow tables are versioned as. */
  static final String COMPONENT = "workflow";

  /**
   * The component of the owners' table, which is this module's alone: version 1 records in each row
   * the server start under which the owner's lock was taken ({@link OwnerRows}).
   */
  static final String OWNERS_COMPONENT = "workflow_owners";

  private static final int OWNERS_VERSION = 1;

  private WorkflowSchema() {}

  /**
   * Brings the tables to {@link WorkflowTables#VERSION} inside the caller's transaction, which must
   * not auto-commit; a refusal leaves it for the caller to roll back.
   *
   * @throws dev.sluice.StoreFormatException if the tables are of a newer or unknown version or
   *     format
   */
  static void ensure(Connection c, Tables t, WorkflowTables tables) throws SQLException {
    int found =
        SchemaVersions.lockAndRead(
            c, t, COMPONENT, "the Sluice workflow tables " + t.describe(), WorkflowTables.VERSION);
    if (found == WorkflowTables.VERSION) {
      tables.check(c); // the format id and the core's own record of the schema
      ensureOwners(c, t);
      return;
    }
    try (Statement st = c.createStatement()) {
      SchemaVersions.createTable(st, t);
      if (found == 0) {
        tables.create(c, WorkflowTables.VERSION);
        st.execute(
            "CREATE TABLE "
                + t.workflowOwners()
                + " (owner_id text PRIMARY KEY, lock_key bigint NOT NULL,"
                + " expires_at timestamptz NOT NULL, locked_in timestamptz)");
      } else {
        tables.check(c);
        for (String sql : tables.migration(found)) {
          st.execute(sql);
        }
        tables.recordSchema(c, WorkflowTables.VERSION);
      }
    }
    SchemaVersions.record(c, t, COMPONENT, found, WorkflowTables.VERSION);
    ensureOwners(c, t);
  }

  /**
   * Brings the owners' table to {@link #OWNERS_VERSION}: tables made before it lack the column of
   * the lock's server start; their rows count as taken under the current start.
   */
  private static void ensureOwners(Connection c, Tables t) throws SQLException {
    int found =
        SchemaVersions.lockAndRead(
            c,
            t,
            OWNERS_COMPONENT,
            "the Sluice workflow owners' table " + t.describe(),
            OWNERS_VERSION);
    if (found == OWNERS_VERSION) {
      return;
    }
    try (Statement st = c.createStatement()) {
      st.execute(
          "ALTER TABLE " + t.workflowOwners() + " ADD COLUMN IF NOT EXISTS locked_in timestamptz");
    }
    SchemaVersions.record(c, t, OWNERS_COMPONENT, found, OWNERS_VERSION);
  }
}
