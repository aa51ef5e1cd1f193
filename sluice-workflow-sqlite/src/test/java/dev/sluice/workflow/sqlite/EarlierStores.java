/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Writes a store directory as an earlier Sluice left it, with plain SQL, for upgrade tests. */
final class EarlierStores {
  private EarlierStores() {}

  /** Writes the rows of an earlier store; runs inside one transaction. */
  @FunctionalInterface
  interface Rows {
    void write(Connection db, Statement st) throws SQLException;
  }

  /**
   * Creates {@code dir} (0700) with a {@code workflows.db} (0600) in WAL mode holding what {@code
   * rows} writes in one transaction.
   */
  static void write(Path dir, Rows rows) throws Exception {
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path file = dir.resolve("workflows.db");
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("BEGIN IMMEDIATE");
      rows.write(db, st);
      st.execute("COMMIT");
    }
  }
}
