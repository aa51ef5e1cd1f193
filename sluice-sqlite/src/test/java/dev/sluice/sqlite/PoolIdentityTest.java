/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which directory is which pool, who may share it, and what survives a lost commit. */
class PoolIdentityTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();

  @TempDir Path root;

  @Test
  void twoSpellingsOfOneDirectoryAreOnePool() throws Exception {
    Path dir = root.resolve("p");
    Path other = root.resolve("x").resolve("..").resolve("p");
    Files.createDirectories(root.resolve("x"));
    try (Limiter a = Limiter.open(SqliteStore.directory(dir), CAP_2);
        Limiter b = Limiter.open(SqliteStore.directory(other), CAP_2)) {
      Lease held = a.acquire(2);
      assertThat(b.tryAcquire(1)).isEmpty();
      assertThat(b.inspect().leases())
          .singleElement()
          .satisfies(l -> assertThat(l.leaseId()).isEqualTo(held.admission().leaseId()));
      held.close();
      assertThat(a.pool()).isEqualTo(b.pool());
    }
  }

  @Test
  void aGroupSharedDirectoryIsAcceptedAndItsFilesAreGroupReadable() throws Exception {
    Path dir = root.resolve("shared");
    Files.createDirectory(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwx---"));
    // setgid: the mode a dedicated group's pool directory has (2770).
    new ProcessBuilder("chmod", "2770", dir.toString()).start().waitFor();
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2)) {
      l.acquire(1).close();
    }
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("state.db"))))
        .isEqualTo("rw-rw----");
  }

  @Test
  void fencingTokensNeverGoBackAfterACommitIsLost() throws Exception {
    Path dir = root.resolve("p");
    long before;
    byte[] earlier;
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2)) {
      earlier = storedState(dir);
      try (Lease lease = l.acquire(1)) {
        before = lease.admission().fencingToken();
      }
    }
    // A power loss with synchronous=NORMAL may undo the last commits: model it by putting back the
    // state row from before the lease was granted while the durable reservation stays.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        PreparedStatement st = c.prepareStatement("UPDATE sluice_pool SET state = ?")) {
      st.setBytes(1, earlier);
      assertThat(st.executeUpdate()).isEqualTo(1);
    }
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2);
        Lease lease = l.acquire(1)) {
      assertThat(lease.admission().fencingToken()).isGreaterThan(before);
    }
  }

  private static byte[] storedState(Path dir) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT state FROM sluice_pool")) {
      assertThat(rs.next()).isTrue();
      return rs.getBytes(1);
    }
  }
}
