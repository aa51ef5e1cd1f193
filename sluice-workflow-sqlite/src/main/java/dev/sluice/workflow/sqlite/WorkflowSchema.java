/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.StoreFormatException;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.StoreFile;
import dev.sluice.workflow.jdbc.WorkflowTables;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The file side of {@code workflows.db}: how {@link StoreFile} creates and checks it, and a forward
 * migration of its {@link WorkflowTables} after the file was copied to {@code
 * workflows.db.schema-N.bak}, so a failed or regretted upgrade leaves the old store intact.
 *
 * <p>Stateless; call its methods under the directory's gate.
 */
final class WorkflowSchema {
  static final String FILE = "workflows.db";

  private WorkflowSchema() {}

  private static WorkflowTables tables(PoolDirectory dir) {
    return new WorkflowTables(SqliteWorkflowDialect.INSTANCE, dir.file(FILE).toString());
  }

  /** How {@link StoreFile} creates a new store of this schema and checks an existing one. */
  static StoreFile.Schema schema(PoolDirectory dir) {
    WorkflowTables tables = tables(dir);
    return new StoreFile.Schema() {
      @Override
      public void create(Connection db) throws SQLException {
        tables.create(db, WorkflowTables.VERSION);
      }

      @Override
      public void check(Connection db) throws SQLException {
        tables.check(db);
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
    WorkflowTables tables = tables(dir);
    int stored = tables.check(db);
    if (stored < WorkflowTables.VERSION) {
      backUp(dir, db, dir.file(FILE + ".schema-" + stored + ".bak"));
      tables.migrate(db, stored);
    }
  }

  /**
   * Writes the tables and meta rows of schema {@code version} into an empty database, inside the
   * caller's transaction, as {@link WorkflowTables#create} does. Tests make old stores with it.
   */
  static void create(Connection db, int version) throws SQLException {
    new WorkflowTables(SqliteWorkflowDialect.INSTANCE, "(new)").create(db, version);
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
}
