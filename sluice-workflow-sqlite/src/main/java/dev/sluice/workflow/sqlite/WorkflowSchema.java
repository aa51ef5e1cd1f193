/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.StoreFormatException;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.spi.support.FormatCheck;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The tables of {@code workflows.db}, its format id and schema version, and the forward migrations.
 * A migration from version N runs in one transaction after the file was copied to {@code
 * workflows.db.schema-N.bak}, so a failed or regretted upgrade leaves the old store intact.
 *
 * <p>Stateless; call its methods under the directory's gate.
 */
final class WorkflowSchema {
  static final String FILE = "workflows.db";
  static final String FORMAT = "sluice-workflow-store";

  /** The schema this library writes. */
  static final int VERSION = 2;

  /** The tables of schema 1; a new store gets them and then every migration, as an old one does. */
  private static final List<String> TABLES =
      List.of(
          "CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
          "CREATE TABLE wf_execution (id TEXT PRIMARY KEY, workflow TEXT NOT NULL,"
              + " version INTEGER NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,"
              + " output TEXT, failure TEXT, claim_owner TEXT, claim_epoch INTEGER NOT NULL,"
              + " created_at INTEGER NOT NULL, queued_at INTEGER NOT NULL,"
              + " updated_at INTEGER NOT NULL, deadline_at INTEGER NOT NULL)",
          "CREATE INDEX wf_execution_by_status ON wf_execution (status, queued_at, id)",
          // Only finished executions, for retention: the oldest is one seek however many
          // unfinished executions (long sleepers) are older.
          "CREATE INDEX wf_execution_finished ON wf_execution (updated_at, id) WHERE status IN"
              + " ("
              + WorkflowRows.FINISHED
              + ")",
          "CREATE TABLE wf_step (execution_id TEXT NOT NULL, position INTEGER NOT NULL,"
              + " step_key TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT NULL,"
              + " payload TEXT, failure TEXT, attempts INTEGER NOT NULL, at INTEGER NOT NULL,"
              + " recorded_at INTEGER NOT NULL, PRIMARY KEY (execution_id, position))"
              + " WITHOUT ROWID",
          "CREATE TABLE wf_timer (execution_id TEXT PRIMARY KEY, due_at INTEGER NOT NULL)",
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
              "ALTER TABLE wf_step ADD COLUMN store TEXT",
              "ALTER TABLE wf_step ADD COLUMN document_id TEXT",
              "CREATE TABLE wf_document (store TEXT NOT NULL, id TEXT NOT NULL,"
                  + " version INTEGER NOT NULL, state TEXT NOT NULL, updated_at INTEGER NOT NULL,"
                  + " PRIMARY KEY (store, id)) WITHOUT ROWID",
              "CREATE TABLE wf_waiter (execution_id TEXT PRIMARY KEY, step_key TEXT NOT NULL,"
                  + " store TEXT NOT NULL, document_id TEXT NOT NULL, paths TEXT NOT NULL,"
                  + " since_version INTEGER NOT NULL)",
              "CREATE INDEX wf_waiter_by_document ON wf_waiter (store, document_id, execution_id)",
              "CREATE TABLE wf_receipt (store TEXT NOT NULL, document_id TEXT NOT NULL,"
                  + " key TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL,"
                  + " recorded_at INTEGER NOT NULL, PRIMARY KEY (store, document_id, key))"
                  + " WITHOUT ROWID",
              "CREATE INDEX wf_receipt_by_time ON wf_receipt (recorded_at)"));

  private WorkflowSchema() {}

  /** How {@link StoreFile} creates a new store of this schema and checks an existing one. */
  static StoreFile.Schema schema(PoolDirectory dir) {
    return new StoreFile.Schema() {
      @Override
      public void create(Connection db) throws SQLException {
        WorkflowSchema.create(db, VERSION);
      }

      @Override
      public void check(Connection db) throws SQLException {
        WorkflowSchema.check(dir, db);
      }
    };
  }

  /**
   * Migrates a checked store of an older schema forward; call under the gate, after {@link
   * StoreFile#open} with {@link #schema}.
   *
   * @throws StoreFormatException if the file is of a newer schema
   */
  static void migrateIfOlder(PoolDirectory dir, Connection db) throws SQLException, IOException {
    int stored = check(dir, db);
    if (stored < VERSION) {
      migrate(dir, db, stored);
    }
  }

  /**
   * Writes the tables and meta rows of schema {@code version} into an empty database, inside the
   * caller's transaction: schema 1, then each migration up to {@code version}, so a new store is
   * exactly what an old one becomes. Tests make old stores with it.
   */
  static void create(Connection db, int version) throws SQLException {
    try (Statement st = db.createStatement()) {
      for (String sql : TABLES) {
        st.execute(sql);
      }
      for (int v = 1; v < version; v++) {
        for (String sql : MIGRATIONS.get(v)) {
          st.execute(sql);
        }
      }
    }
    putMeta(db, "format", FORMAT);
    putMeta(db, "schema", Integer.toString(version));
  }

  private static int check(PoolDirectory dir, Connection db) throws SQLException {
    String what = "workflow store " + dir.file(FILE);
    FormatCheck.require(what, SqliteFiles.meta(db, "format"), List.of(FORMAT));
    return FormatCheck.requireVersion(what, SqliteFiles.meta(db, "schema"), VERSION);
  }

  private static void migrate(PoolDirectory dir, Connection db, int from)
      throws SQLException, IOException {
    backUp(dir, db, dir.file(FILE + ".schema-" + from + ".bak"));
    try (Statement st = db.createStatement()) {
      st.execute("BEGIN IMMEDIATE");
      boolean committed = false;
      try {
        // Read again under this transaction: another process may have migrated meanwhile.
        for (int v = check(dir, db); v < VERSION; v++) {
          List<String> step = MIGRATIONS.get(v);
          if (step == null) {
            throw new StoreFormatException(
                "workflow store " + dir.file(FILE) + ": no migration from schema " + v);
          }
          for (String sql : step) {
            st.execute(sql);
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
            // SQLite may have rolled back already; the original failure is what matters.
          }
        }
      }
    }
  }

  /**
   * Copies the store before a migration, durably: {@code VACUUM INTO} a temporary file made with
   * the directory's mode (it writes a consistent copy, WAL included, but does not fsync it), fsync,
   * then an atomic rename, so a crash never leaves a partial backup under the final name. A backup
   * left by an earlier attempt at the same migration is kept: it holds the schema being migrated
   * from.
   */
  private static void backUp(PoolDirectory dir, Connection db, Path backup)
      throws SQLException, IOException {
    if (Files.exists(backup)) {
      return;
    }
    Path partial = dir.file(backup.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    dir.createFile(partial);
    try (Statement st = db.createStatement()) {
      st.execute("VACUUM INTO '" + partial.toString().replace("'", "''") + "'");
    }
    try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    Files.move(partial, backup, StandardCopyOption.ATOMIC_MOVE);
    try (FileChannel d = FileChannel.open(dir.path(), StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  private static void putMeta(Connection db, String key, String value) throws SQLException {
    try (PreparedStatement st =
        db.prepareStatement("INSERT OR REPLACE INTO sluice_meta (key, value) VALUES (?, ?)")) {
      st.setString(1, key);
      st.setString(2, value);
      st.executeUpdate();
    }
  }
}
