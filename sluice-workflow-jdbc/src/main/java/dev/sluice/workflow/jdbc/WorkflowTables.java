/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import dev.sluice.StoreFormatException;
import dev.sluice.spi.support.FormatCheck;
import dev.sluice.workflow.jdbc.WorkflowDialect.ColumnType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tables of a workflow store, its format id and schema version, and the forward migrations, in
 * any {@link WorkflowDialect}. The statements are written once with type tokens ({@code {text}},
 * {@code {int}}, {@code {long}}, {@code {key-ordered}}) and SQLite's table names that the dialect
 * renders ({@link SqlNames}), so every database gets the same tables. A store module decides what
 * happens around a migration (SQLite copies the file first).
 *
 * <p>Immutable and thread-safe; its methods run on the caller's connection, in the caller's
 * transaction unless they say otherwise.
 */
public final class WorkflowTables {
  /** The format id every workflow store records in {@code sluice_meta}. */
  public static final String FORMAT = "sluice-workflow-store";

  /** The schema this library writes. */
  public static final int VERSION = 2;

  /** The tables of schema 1; a new store gets them and then every migration, as an old one does. */
  private static final List<String> TABLES =
      List.of(
          "CREATE TABLE sluice_meta (key {text} PRIMARY KEY, value {text} NOT NULL)",
          "CREATE TABLE wf_execution (id {text} PRIMARY KEY, workflow {text} NOT NULL,"
              + " version {int} NOT NULL, status {text} NOT NULL, input {text} NOT NULL,"
              + " output {text}, failure {text}, claim_owner {text}, claim_epoch {long} NOT NULL,"
              + " created_at {long} NOT NULL, queued_at {long} NOT NULL,"
              + " updated_at {long} NOT NULL, deadline_at {long} NOT NULL)",
          "CREATE INDEX wf_execution_by_status ON wf_execution (status, queued_at, id)",
          // Only finished executions, for retention: the oldest is one seek however many
          // unfinished executions (long sleepers) are older.
          "CREATE INDEX wf_execution_finished ON wf_execution (updated_at, id) WHERE status IN"
              + " ("
              + WorkflowRows.FINISHED
              + ")",
          "CREATE TABLE wf_step (execution_id {text} NOT NULL, position {int} NOT NULL,"
              + " step_key {text} NOT NULL, kind {text} NOT NULL, outcome {text} NOT NULL,"
              + " payload {text}, failure {text}, attempts {long} NOT NULL, at {long} NOT NULL,"
              + " recorded_at {long} NOT NULL, PRIMARY KEY (execution_id, position))"
              + "{key-ordered}",
          "CREATE TABLE wf_timer (execution_id {text} PRIMARY KEY, due_at {long} NOT NULL)",
          "CREATE INDEX wf_timer_by_due ON wf_timer (due_at, execution_id)");

  /**
   * Statements that take a store of schema N to N + 1, by N. A new schema adds its step here and
   * raises {@link #VERSION}; a store is never migrated backwards.
   *
   * <p>2: durable stores: documents, the waiters of executions waiting on them, and the receipts of
   * idempotent updates.
   */
  private static final Map<Integer, List<String>> MIGRATIONS =
      Map.of(
          1,
          List.of(
              // Which document a store step's snapshot is of.
              "ALTER TABLE wf_step ADD COLUMN store {text}",
              "ALTER TABLE wf_step ADD COLUMN document_id {text}",
              "CREATE TABLE wf_document (store {text} NOT NULL, id {text} NOT NULL,"
                  + " version {long} NOT NULL, state {text} NOT NULL, updated_at {long} NOT NULL,"
                  + " PRIMARY KEY (store, id)){key-ordered}",
              "CREATE TABLE wf_waiter (execution_id {text} PRIMARY KEY, step_key {text} NOT NULL,"
                  + " store {text} NOT NULL, document_id {text} NOT NULL, paths {text} NOT NULL,"
                  + " since_version {long} NOT NULL)",
              "CREATE INDEX wf_waiter_by_document ON wf_waiter (store, document_id, execution_id)",
              "CREATE TABLE wf_receipt (store {text} NOT NULL, document_id {text} NOT NULL,"
                  + " key {text} NOT NULL, version {long} NOT NULL, state {text} NOT NULL,"
                  + " recorded_at {long} NOT NULL, PRIMARY KEY (store, document_id, key))"
                  + "{key-ordered}",
              "CREATE INDEX wf_receipt_by_time ON wf_receipt (recorded_at)"));

  private final WorkflowDialect dialect;
  private final String store;

  /**
   * The tables in {@code dialect}.
   *
   * @param dialect the database's dialect
   * @param store names the store in messages, such as the file's path
   */
  public WorkflowTables(WorkflowDialect dialect, String store) {
    this.dialect = dialect;
    this.store = store;
  }

  /**
   * Returns the statements that create a store of schema {@code version} in an empty database:
   * schema 1, then each migration up to {@code version}, so a new store is exactly what an old one
   * becomes.
   *
   * @param version a schema version, 1 to {@link #VERSION}
   * @return the statements, in order
   */
  public List<String> creation(int version) {
    List<String> out = new ArrayList<>();
    TABLES.forEach(sql -> out.add(render(sql)));
    for (int v = 1; v < version; v++) {
      MIGRATIONS.get(v).forEach(sql -> out.add(render(sql)));
    }
    return out;
  }

  /**
   * Returns the statements that take a store of schema {@code from} to {@link #VERSION}, for a
   * store module that runs them in a transaction of its own (PostgreSQL, under its schema lock);
   * {@link #recordSchema} then records the version.
   *
   * @param from the stored schema version, 1 to {@link #VERSION}
   * @return the statements, in order; empty if the store is current
   * @throws StoreFormatException if there is no migration from a version on the way
   */
  public List<String> migration(int from) {
    List<String> out = new ArrayList<>();
    for (int v = from; v < VERSION; v++) {
      List<String> step = MIGRATIONS.get(v);
      if (step == null) {
        throw new StoreFormatException(
            "workflow store " + store + ": no migration from schema " + v);
      }
      step.forEach(sql -> out.add(render(sql)));
    }
    return out;
  }

  /**
   * Records the schema version in {@code sluice_meta}, inside the caller's transaction.
   *
   * @param db the connection
   * @param version the version the tables now have
   * @throws SQLException if the write fails
   */
  public void recordSchema(Connection db, int version) throws SQLException {
    putMeta(db, "schema", Integer.toString(version));
  }

  /**
   * Writes the tables and meta rows of schema {@code version} into an empty database, inside the
   * caller's transaction. Tests make old stores with it.
   *
   * @param db the connection
   * @param version a schema version, 1 to {@link #VERSION}
   * @throws SQLException if a statement fails
   */
  public void create(Connection db, int version) throws SQLException {
    try (Statement st = db.createStatement()) {
      for (String sql : creation(version)) {
        st.execute(sql);
      }
    }
    putMeta(db, "format", FORMAT);
    putMeta(db, "schema", Integer.toString(version));
  }

  /**
   * Checks the format id and schema version of a store; only reads.
   *
   * @param db the connection
   * @return the stored schema version, 1 to {@link #VERSION}
   * @throws StoreFormatException if it is another format or a schema this library does not read,
   *     naming the store and what was found
   * @throws SQLException if the read fails
   */
  public int check(Connection db) throws SQLException {
    String what = "workflow store " + store;
    FormatCheck.require(what, meta(db, "format"), List.of(FORMAT));
    return FormatCheck.requireVersion(what, meta(db, "schema"), VERSION);
  }

  /**
   * Migrates a store of schema {@code from} to {@link #VERSION} in one transaction of its own,
   * reading the version again inside it (another process may have migrated meanwhile); on any
   * failure nothing is changed.
   *
   * @param db the connection, in auto-commit mode
   * @param from the version {@link #check} found
   * @throws StoreFormatException if the store is of a schema with no migration
   * @throws SQLException if a statement fails
   */
  public void migrate(Connection db, int from) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute(dialect.beginWrite());
      boolean committed = false;
      try {
        for (int v = check(db); v < VERSION; v++) {
          List<String> step = MIGRATIONS.get(v);
          if (step == null) {
            throw new StoreFormatException(
                "workflow store " + store + ": no migration from schema " + v);
          }
          for (String sql : step) {
            st.execute(render(sql));
          }
          putMeta(db, "schema", Integer.toString(v + 1));
        }
        st.execute("COMMIT");
        committed = true;
      } finally {
        if (!committed) {
          try {
            st.execute("ROLLBACK");
          } catch (SQLException e) {
            // The database may have rolled back already; the original failure is what matters.
          }
        }
      }
    }
  }

  /**
   * Reads a row of {@code sluice_meta}.
   *
   * @param db the connection
   * @param key the key
   * @return the value, or null if there is no such row or no such table
   * @throws SQLException if the read fails otherwise
   */
  public String meta(Connection db, String key) throws SQLException {
    try (PreparedStatement st =
        SqlNames.prepare(db, dialect, "SELECT value FROM sluice_meta WHERE key = ?")) {
      st.setString(1, key);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      if (dialect.missingTable(e)) {
        return null;
      }
      throw e;
    }
  }

  private void putMeta(Connection db, String key, String value) throws SQLException {
    try (PreparedStatement st =
        SqlNames.prepare(
            db, dialect, dialect.upsert("sluice_meta", List.of("key", "value"), List.of("key")))) {
      st.setString(1, key);
      st.setString(2, value);
      st.executeUpdate();
    }
  }

  private String render(String template) {
    String sql = SqlNames.render(template, dialect);
    return sql.replace("{text}", dialect.type(ColumnType.TEXT))
        .replace("{int}", dialect.type(ColumnType.INT))
        .replace("{long}", dialect.type(ColumnType.LONG))
        .replace("{key-ordered}", dialect.keyOrderedTable());
  }
}
