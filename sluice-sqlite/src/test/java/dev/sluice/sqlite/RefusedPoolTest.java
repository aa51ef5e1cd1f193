/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConfigMismatchException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
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
 * A refused pool directory is left exactly as it was found: every entry's name, mode, size, bytes
 * and modification time, the journal mode of its file included. And a {@code state.db} that is
 * empty or header-less is refused as damaged, never taken for a new pool: its fencing tokens would
 * start again at 1.
 */
class RefusedPoolTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();

  @TempDir Path root;

  private static Limiter open(Path dir, LimiterConfig config) {
    return Limiter.open(SqliteStore.directory(dir), config);
  }

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

  @Test
  void aForeignSluiceMetaIsRefusedWithItsJournalModeAndDirectoryUntouched() throws Exception {
    Path dir = privateDir("foreign");
    Path file = dir.resolve("state.db");
    // Another program's file in the default rollback journal mode, with a table of our name.
    sql(
        file,
        "CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO sluice_meta VALUES ('format', 'someone-else/7')");
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toRealPath().toString())
        .hasMessageContaining("someone-else/7")
        .hasMessageContaining("nothing was changed");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
    // Bytes 18 and 19 of the header: 1 is the rollback journal, 2 would be WAL.
    byte[] header = Files.readAllBytes(file);
    assertThat(new byte[] {header[18], header[19]}).containsExactly(1, 1);
  }

  @Test
  void anotherProgramsDatabaseLeavesNoGateLockNorSubdirectories() throws Exception {
    Path dir = privateDir("invoices");
    sql(dir.resolve("state.db"), "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)");
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("not a Sluice store");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aCopiedPoolOfAnotherConfigurationIsRefusedInAFreshDirectory() throws Exception {
    Path original = root.resolve("original");
    open(original, CAP_2).close();
    Path dir = privateDir("copy");
    Files.copy(original.resolve("state.db"), dir.resolve("state.db"));
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, LimiterConfig.builder().maxConcurrent(3).build()))
        .isInstanceOf(ConfigMismatchException.class)
        .hasMessageContaining(dir.toRealPath().toString());
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aNewerFormatOfAUsedPoolIsRefusedAndEveryFileKept() throws Exception {
    Path dir = root.resolve("newer");
    try (Limiter l = open(dir, CAP_2)) {
      l.acquire(1).close();
    }
    sql(
        dir.resolve("state.db"),
        "UPDATE sluice_meta SET value = 'sluice-limiter-pool/99' WHERE key = 'format'");
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("sluice-limiter-pool/99");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aTruncatedStateFileIsDamagedNotANewPool() throws Exception {
    Path dir = root.resolve("truncated");
    long last = 0;
    try (Limiter l = open(dir, CAP_2)) {
      for (int i = 0; i < 5; i++) {
        try (Lease lease = l.acquire(1)) {
          last = lease.admission().fencingToken();
        }
      }
    }
    assertThat(last).isGreaterThanOrEqualTo(5);
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("state.db").toFile(), "rw")) {
      f.setLength(0);
    }
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toRealPath().resolve("state.db").toString())
        .hasMessageContaining("is empty (0 bytes)")
        .hasMessageContaining("fencing tokens")
        .hasMessageContaining("Restore it from a backup");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void anEmptyStateFileInADirectoryWithoutAGateIsDamagedToo() throws Exception {
    Path dir = privateDir("empty");
    Files.createFile(dir.resolve("state.db"));
    DirectorySnapshot before = DirectorySnapshot.of(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("is empty (0 bytes)");
    assertThat(DirectorySnapshot.of(dir)).isEqualTo(before);
  }

  @Test
  void aCreationThatCrashedBeforeItsRenameLeavesNoPoolAndIsRedone() throws Exception {
    Path dir = privateDir("crashed");
    // What a creator killed before its rename leaves: a partial file under the temporary name.
    Files.writeString(dir.resolve("state.db.creating"), "half a database");
    try (Limiter l = open(dir, CAP_2);
        Lease lease = l.acquire(1)) {
      assertThat(lease.admission().fencingToken()).isEqualTo(1);
    }
    assertThat(dir.resolve("state.db.creating")).doesNotExist();
    assertThat(Files.readAllBytes(dir.resolve("state.db")))
        .startsWith("SQLite format 3".getBytes());
  }
}
