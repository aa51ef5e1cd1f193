/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BackendFailureException;
import dev.sluice.ConfigMismatchException;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.SluiceException;
import dev.sluice.StoreFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad pool directory is a clear error naming the path; nothing stored is touched. */
class BadPoolDirectoryTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();

  @TempDir Path root;

  private static Limiter open(Path dir, LimiterConfig config) {
    return Limiter.open(SqliteStore.directory(dir), config);
  }

  private static byte[] bytes(Path file) throws Exception {
    return Files.readAllBytes(file);
  }

  /** What the pool stores, read through SQLite: checkpoints may move bytes, never content. */
  private static String stored(Path dir) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        Statement st = c.createStatement();
        var rs =
            st.executeQuery(
                "SELECT group_concat(key || '=' || value, ';') FROM sluice_meta"
                    + " UNION ALL SELECT version || ' ' || state FROM sluice_pool")) {
      StringBuilder out = new StringBuilder();
      while (rs.next()) {
        out.append(rs.getString(1)).append('\n');
      }
      return out.toString();
    }
  }

  /** Another pool next door must keep working whatever happened to this one. */
  private void assertNeighbourWorks() throws Exception {
    try (Limiter other = open(root.resolve("neighbour"), CAP_2)) {
      try (Lease l = other.acquire(2)) {
        assertThat(l.admission().weight()).isEqualTo(2);
      }
    }
  }

  @Test
  void aNewPoolDirectoryIsPrivate() throws Exception {
    Path dir = root.resolve("fresh");
    try (Limiter l = open(dir, CAP_2)) {
      l.acquire(1).close();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("state.db"))))
        .isEqualTo("rw-------");
  }

  @Test
  void anotherConfigurationIsRefusedAndTheStoredOneKept() throws Exception {
    Path dir = root.resolve("p");
    open(dir, CAP_2).close();
    String before = stored(dir);
    LimiterConfig other = LimiterConfig.builder().maxConcurrent(3).build();
    assertThatThrownBy(() -> open(dir, other))
        .isInstanceOf(ConfigMismatchException.class)
        .hasMessageContaining(dir.toRealPath().toString());
    assertThat(stored(dir)).isEqualTo(before);
    open(dir, CAP_2).close();
    assertNeighbourWorks();
  }

  @Test
  void anotherFormatIsRefusedNeverMigrated() throws Exception {
    Path dir = root.resolve("p");
    open(dir, CAP_2).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        Statement st = c.createStatement()) {
      st.executeUpdate(
          "UPDATE sluice_meta SET value = 'sluice-limiter-pool/99' WHERE key='format'");
    }
    String before = stored(dir);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toRealPath().toString())
        .hasMessageContaining("sluice-limiter-pool/99");
    assertThat(stored(dir)).isEqualTo(before);
    assertNeighbourWorks();
  }

  @Test
  void aGarbageStateFileIsAClearErrorAndIsKept() throws Exception {
    Path dir = root.resolve("p");
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    byte[] garbage =
        "this is not a database, it is a grocery list".repeat(100).getBytes(StandardCharsets.UTF_8);
    Files.write(dir.resolve("state.db"), garbage);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toRealPath().toString());
    assertThat(bytes(dir.resolve("state.db"))).isEqualTo(garbage);
    assertNeighbourWorks();
  }

  @Test
  void anotherProgramsDatabaseIsRefusedAndNotEvenItsJournalModeChanges() throws Exception {
    Path dir = root.resolve("p");
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path file = dir.resolve("state.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)");
      st.execute("INSERT INTO invoices VALUES (1, 42)");
    }
    byte[] before = bytes(file);
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toRealPath().toString())
        .hasMessageContaining("not a Sluice store");
    assertThat(bytes(file)).isEqualTo(before);
    assertNeighbourWorks();
  }

  @Test
  void aFileInPlaceOfTheDirectoryIsRefused() throws Exception {
    Path file = root.resolve("p");
    Files.writeString(file, "keep me");
    assertThatThrownBy(() -> open(file, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a directory");
    assertThat(Files.readString(file)).isEqualTo("keep me");
    assertNeighbourWorks();
  }

  @Test
  void aWorldWritableDirectoryIsRefused() throws Exception {
    Path dir = root.resolve("p");
    Files.createDirectory(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("writable by everyone");
    try (var entries = Files.list(dir)) {
      assertThat(entries).isEmpty();
    }
    assertNeighbourWorks();
  }

  @Test
  void aGroupWritableDirectoryWithoutTheSharedModeIsRefused() throws Exception {
    Path dir = root.resolve("p");
    Files.createDirectory(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwx---"));
    assertThatThrownBy(() -> open(dir, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("group-writable");
  }

  @Test
  void aSymlinkIsRefused() throws Exception {
    Path real = root.resolve("real");
    Files.createDirectory(real);
    Path link = Files.createSymbolicLink(root.resolve("link"), real);
    assertThatThrownBy(() -> open(link, CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("symbolic link");
  }

  @Test
  void anUnwritableDirectoryIsAClearError() throws Exception {
    Path dir = root.resolve("p");
    Files.createDirectory(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
    // Root writes into any directory whatever its mode, but not into an immutable one.
    boolean immutable = "root".equals(System.getProperty("user.name")) && chattr("+i", dir);
    Assumptions.assumeTrue(
        immutable || !"root".equals(System.getProperty("user.name")),
        "root may write into any directory, and chattr +i is not allowed here");
    try {
      assertThatThrownBy(() -> open(dir, CAP_2))
          .isInstanceOf(SluiceException.class)
          .hasMessageContaining(dir.toString());
      assertThat(dir).isEmptyDirectory();
    } finally {
      if (immutable) {
        assertThat(chattr("-i", dir)).as("chattr -i " + dir).isTrue();
      }
    }
  }

  private static boolean chattr(String flag, Path dir) throws Exception {
    Process p =
        new ProcessBuilder("chattr", flag, dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    return p.waitFor() == 0;
  }

  @Test
  void aDeletedNotifyDirectoryFailsTheStoreWithThePath() throws Exception {
    Path dir = root.resolve("p");
    try (Limiter limiter = open(dir, CAP_2)) {
      Files.deleteIfExists(dir.resolve("notify").resolve("pulse"));
      Files.delete(dir.resolve("notify"));
      assertThatThrownBy(() -> limiter.acquire(1).close())
          .isInstanceOf(BackendFailureException.class)
          .hasMessageContaining(dir.toRealPath().toString());
    }
    assertThat(dir.resolve("state.db")).exists();
    assertNeighbourWorks();
  }
}
