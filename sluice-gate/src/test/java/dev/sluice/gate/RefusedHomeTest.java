/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StoreFormatException;
import dev.sluice.testkit.DirectorySnapshot;
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
 * A refused gate home is left exactly as it was found (names, modes, sizes, bytes, modification
 * times): no {@code gate.lock}, {@code notify/} or {@code owners/} appears, and the file's journal
 * mode stays what it was.
 */
class RefusedHomeTest {
  @TempDir Path root;

  private Path privateHome(String name) throws Exception {
    return Files.createDirectory(
            root.resolve(name),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
        .toRealPath();
  }

  private static void sql(Path file, String... statements) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  private static void assertRefusedUnchanged(Path home, String message) {
    DirectorySnapshot before = DirectorySnapshot.of(home);
    assertThatThrownBy(() -> GateService.open(home).close())
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(home.toString())
        .hasMessageContaining(message);
    assertThat(DirectorySnapshot.of(home)).isEqualTo(before);
  }

  @Test
  void aForeignFormatIsRefusedAndKeepsItsRollbackJournal() throws Exception {
    Path home = privateHome("foreign");
    sql(
        home.resolve("gate.db"),
        "CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO sluice_meta VALUES ('format', 'sluice-gate/9')");
    assertRefusedUnchanged(home, "'sluice-gate/9'");
    byte[] header = Files.readAllBytes(home.resolve("gate.db"));
    assertThat(new byte[] {header[18], header[19]}).as("rollback journal").containsExactly(1, 1);
  }

  @Test
  void anotherProgramsDatabaseIsRefused() throws Exception {
    Path home = privateHome("other");
    sql(home.resolve("gate.db"), "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    assertRefusedUnchanged(home, "not a Sluice store");
  }

  @Test
  void aTruncatedGateIsDamagedNotANewHome() throws Exception {
    Path home = privateHome("truncated");
    GateService.open(home).close();
    try (RandomAccessFile f = new RandomAccessFile(home.resolve("gate.db").toFile(), "rw")) {
      f.setLength(0);
    }
    assertRefusedUnchanged(home, "is empty (0 bytes)");
  }
}
