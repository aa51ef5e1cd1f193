/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StoreFormatException;
import dev.sluice.testkit.DirectorySnapshot;
import dev.sluice.workflow.spi.WorkflowSession;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused workflow store directory is left exactly as it was found (names, modes, sizes, bytes,
 * modification times): no {@code gate.lock}, {@code notify/} or {@code owners/} appears, and the
 * file's journal mode stays what it was.
 */
class RefusedStoreTest {
  @TempDir Path root;

  private Path privateDir(String name) throws Exception {
    return Files.createDirectory(
        root.resolve(name),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  private static void sql(Path file, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  private static void assertRefusedUnchanged(Path dir, String message) {
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> SqliteWorkflowStore.directory(dir).open().close())
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.resolve("workflows.db").toString())
        .hasMessageContaining(message);
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aCopiedStoreOfANewerSchemaIsRefusedInAFreshDirectory() throws Exception {
    Path original = root.resolve("original");
    SqliteWorkflowStore.directory(original).open().close();
    sql(
        original.resolve("workflows.db"),
        "UPDATE sluice_meta SET value = '99' WHERE key = 'schema'");
    Path dir = privateDir("copy");
    Files.copy(original.resolve("workflows.db"), dir.resolve("workflows.db"));
    assertRefusedUnchanged(dir.toRealPath(), "schema version '99'");
  }

  @Test
  void aForeignFormatKeepsItsRollbackJournal() throws Exception {
    Path dir = privateDir("foreign").toRealPath();
    sql(
        dir.resolve("workflows.db"),
        "CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO sluice_meta VALUES ('format', 'someone-else')");
    assertRefusedUnchanged(dir, "'someone-else'");
    byte[] header = Files.readAllBytes(dir.resolve("workflows.db"));
    assertThat(new byte[] {header[18], header[19]}).as("rollback journal").containsExactly(1, 1);
  }

  @Test
  void aTruncatedStoreIsDamagedNotANewStore() throws Exception {
    Path dir = root.resolve("truncated");
    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      s.transact(tx -> tx.now());
    }
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("workflows.db").toFile(), "rw")) {
      f.setLength(0);
    }
    assertRefusedUnchanged(dir.toRealPath(), "is empty (0 bytes)");
  }
}
