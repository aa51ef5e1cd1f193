/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pool created in format 1 (the JSON state row) keeps working and keeps its format, so processes
 * of the Sluice that created it can go on sharing it with newer ones.
 */
class FormatOnePoolTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();

  @TempDir Path root;

  @Test
  void aFormatOnePoolIsReadAndWrittenInFormatOne() throws Exception {
    Path dir = root.resolve("p");
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2)) {
      l.acquire(1).close();
    }
    // Turn it into what a format-1 Sluice would have left: its format id and a JSON state.
    try (Connection c = connect(dir);
        Statement st = c.createStatement()) {
      st.executeUpdate(
          "UPDATE sluice_meta SET value = 'sluice-limiter-pool/1' WHERE key = 'format'");
      st.executeUpdate(
          "UPDATE sluice_pool SET state = '{\"createdAt\":0,\"nextAllowedAt\":0,"
              + "\"reservoirLimited\":false,\"reservoir\":0,"
              + "\"nextRefreshAt\":9223372036854775807,\"lastEntryId\":40,"
              + "\"lastFencingToken\":7,\"traceCapacity\":16,\"leases\":[],\"waiters\":[]}'");
    }
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2);
        Lease a = l.acquire(1);
        Lease b = l.acquire(1)) {
      assertThat(b.admission().fencingToken()).isGreaterThan(a.admission().fencingToken());
      assertThat(a.admission().fencingToken()).isGreaterThan(7);
      assertThat(l.inspect().leases()).hasSize(2);
    }
    try (Connection c = connect(dir);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT value FROM sluice_meta WHERE key = 'format'), typeof(state), state"
                    + " FROM sluice_pool")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("sluice-limiter-pool/1");
      assertThat(rs.getString(2)).isEqualTo("text");
      assertThat(rs.getString(3)).startsWith("{").contains("\"lastEntryId\":4");
    }
  }

  @Test
  void aNewPoolIsFormatTwo() throws Exception {
    Path dir = root.resolve("p");
    try (Limiter l = Limiter.open(SqliteStore.directory(dir), CAP_2)) {
      l.acquire(1).close();
    }
    try (Connection c = connect(dir);
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT (SELECT value FROM sluice_meta WHERE key = 'format'), typeof(state)"
                    + " FROM sluice_pool")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("sluice-limiter-pool/2");
      assertThat(rs.getString(2)).isEqualTo("blob");
    }
  }

  private static Connection connect(Path dir) throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("state.db"));
  }
}
