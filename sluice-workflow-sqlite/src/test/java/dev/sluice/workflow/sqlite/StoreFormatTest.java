/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StoreFormatException;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowTransaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory that is not a workflow store this library can read is refused with an error naming
 * it, and nothing in it is changed; other stores are not affected.
 */
class StoreFormatTest {
  @TempDir Path root;

  @Test
  void aNewStoreIsCreatedPrivateAndOpensAgain() throws Exception {
    Path dir = root.resolve("fresh");
    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      Optional<ExecutionRecord> none = s.transact(tx -> tx.execution("none"));
      assertThat(none).isEmpty();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("workflows.db"))))
        .isEqualTo("rw-------");
    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      OptionalLong timer = s.transact(WorkflowTransaction::nextTimer);
      assertThat(timer).isEmpty();
    }
  }

  @Test
  void garbageInPlaceOfTheDatabaseIsRefusedAndKept() throws Exception {
    Path dir = storeDir("garbage");
    byte[] garbage = new byte[8192];
    new Random(7).nextBytes(garbage);
    Files.write(dir.resolve("workflows.db"), garbage);

    assertThatThrownBy(() -> SqliteWorkflowStore.directory(dir).open())
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.resolve("workflows.db").toString());
    assertThat(Files.readAllBytes(dir.resolve("workflows.db"))).isEqualTo(garbage);
    opensFine(root.resolve("neighbour"));
  }

  @Test
  void anotherProgramsDatabaseIsRefusedAndKept() throws Exception {
    Path dir = storeDir("foreign");
    Path file = dir.resolve("workflows.db");
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement()) {
      st.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)");
      st.execute("INSERT INTO invoices VALUES (1, 42)");
    }
    byte[] before = Files.readAllBytes(file);

    assertThatThrownBy(() -> SqliteWorkflowStore.directory(dir).open())
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a Sluice store");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aStoreOfANewerSchemaIsRefusedAndNotDowngraded() throws Exception {
    Path dir = root.resolve("newer");
    opensFine(dir);
    Path file = dir.resolve("workflows.db");
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement()) {
      st.execute("UPDATE sluice_meta SET value = '99' WHERE key = 'schema'");
    }

    assertThatThrownBy(() -> SqliteWorkflowStore.directory(dir).open())
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("schema version '99'");
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement();
        var rs = st.executeQuery("SELECT value FROM sluice_meta WHERE key = 'schema'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("99");
    }
  }

  @Test
  void anOpenSessionStopsWritingOnceAnotherProcessMigratesTheStore() throws Exception {
    Path dir = root.resolve("migrated-under");
    Path file = dir.resolve("workflows.db");
    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      s.transact(
          tx -> {
            tx.putExecution(ExecutionRecord.queued("e-1", "w", 1, "{}", tx.now()));
            return null;
          });
      try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement st = db.createStatement()) {
        st.execute("UPDATE sluice_meta SET value = '3' WHERE key = 'schema'");
      }
      assertThatThrownBy(
              () ->
                  s.transact(
                      tx -> {
                        tx.putExecution(ExecutionRecord.queued("e-2", "w", 1, "{}", tx.now()));
                        return null;
                      }))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("schema version '3'");
    }
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement();
        var rs = st.executeQuery("SELECT id FROM wf_execution ORDER BY id")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("e-1");
      assertThat(rs.next()).as("nothing written after the migration").isFalse();
    }
  }

  @Test
  void aWorldWritableDirectoryIsRefusedByName() throws Exception {
    Path dir = storeDir("open");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> SqliteWorkflowStore.directory(dir).open())
        .hasMessageContaining(dir.toString());
    assertThat(dir.resolve("workflows.db")).doesNotExist();
  }

  @Test
  void aFileInPlaceOfTheDirectoryIsRefusedByName() throws Exception {
    Path file = root.resolve("plain-file");
    Files.writeString(file, "not a directory");

    assertThatThrownBy(() -> SqliteWorkflowStore.directory(file).open())
        .hasMessageContaining(file.toString());
    assertThat(Files.readString(file)).isEqualTo("not a directory");
  }

  private Path storeDir(String name) throws Exception {
    Path dir = root.resolve(name);
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    return dir;
  }

  private static void opensFine(Path dir) {
    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      Optional<ExecutionRecord> none = s.transact(tx -> tx.execution("x"));
      assertThat(none).isEmpty();
    }
  }
}
