/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.JDBC;

/**
 * The one commit protocol on a real SQLite file: the pulse before the commit, and all-or-nothing.
 */
class LocalCommitTest {
  @TempDir Path root;
  private PoolDirectory dir;
  private GateLock gate;
  private Connection db;
  private LocalCommit commits;

  @BeforeEach
  void open() throws Exception {
    dir = PoolDirectory.open(root.resolve("store"));
    dir.createLayout();
    gate = GateLock.open(dir);
    db = JDBC.createConnection("jdbc:sqlite:" + dir.file("test.db"), new Properties());
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE t (v INTEGER NOT NULL)");
    }
    commits = new LocalCommit(dir, db);
  }

  @AfterEach
  void close() throws Exception {
    db.close();
    gate.close();
  }

  private void insert(int v) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute("INSERT INTO t (v) VALUES (" + v + ")");
    }
  }

  private long rows() throws SQLException {
    try (Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aPulsingCommitWritesItsTokenAndItsRows() throws Exception {
    try (GateLock.Hold h = gate.hold()) {
      LocalCommit.Written w =
          commits.run(
              h,
              () -> {
                insert(1);
                return LocalCommit.Written.pulsing("v1");
              });
      assertThat(w.wrote()).isTrue();
    }
    assertThat(Pulse.read(dir)).isEqualTo("v1");
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void aQuietCommitOrOneThatWroteNothingLeavesThePulseAlone() throws Exception {
    try (GateLock.Hold h = gate.hold()) {
      commits.run(h, () -> LocalCommit.Written.pulsing("first"));
      commits.run(
          h,
          () -> {
            insert(2);
            return LocalCommit.Written.QUIETLY;
          });
      assertThat(commits.run(h, () -> LocalCommit.Written.NOTHING).wrote()).isFalse();
    }
    assertThat(Pulse.read(dir)).isEqualTo("first");
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void aFailingWriteRollsEverythingBackAndTheConnectionStaysUsable() throws Exception {
    try (GateLock.Hold h = gate.hold()) {
      assertThatThrownBy(
              () ->
                  commits.run(
                      h,
                      () -> {
                        insert(3);
                        throw new IOException("disk gone");
                      }))
          .isInstanceOf(IOException.class)
          .hasMessage("disk gone");
      assertThat(rows()).isZero();
      commits.run(
          h,
          () -> {
            insert(4);
            return LocalCommit.Written.QUIETLY;
          });
    }
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void aPulseThatCannotBeWrittenCommitsNothing() throws Exception {
    Files.delete(Pulse.file(dir).getParent());
    try (GateLock.Hold h = gate.hold()) {
      assertThatThrownBy(
              () ->
                  commits.run(
                      h,
                      () -> {
                        insert(5);
                        return LocalCommit.Written.pulsing("lost");
                      }))
          .isInstanceOf(IOException.class);
    }
    assertThat(rows()).isZero();
  }

  @Test
  void onlyAWriteMayPulse() {
    assertThatThrownBy(() -> new LocalCommit.Written(false, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
