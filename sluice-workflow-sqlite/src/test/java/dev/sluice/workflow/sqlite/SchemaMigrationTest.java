/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store written by the first schema is migrated forward when a newer library opens it: its rows
 * are kept, the new tables work, and a durable copy of the old file is left beside it.
 */
class SchemaMigrationTest {
  @TempDir Path root;

  @Test
  void aSchemaOneStoreIsCopiedThenMigratedKeepingItsRows() throws Exception {
    Path dir = root.resolve("old");
    Path file = dir.resolve("workflows.db");
    EarlierStores.write(
        dir,
        (db, st) -> {
          WorkflowSchema.create(db, 1);
          st.execute(
              "INSERT INTO wf_execution (id, workflow, version, status, input, claim_epoch,"
                  + " created_at, queued_at, updated_at, deadline_at)"
                  + " VALUES ('e-1', 'checkout', 1, 'waiting', '\"x\"', 3, 10, 10, 20, "
                  + ExecutionRecord.NO_DEADLINE
                  + ")");
          st.execute(
              "INSERT INTO wf_step (execution_id, position, step_key, kind, outcome, payload,"
                  + " attempts, at, recorded_at) VALUES ('e-1', 0, 'charge', 'step', 'value',"
                  + " '\"paid\"', 0, 0, 15)");
          st.execute("INSERT INTO wf_timer (execution_id, due_at) VALUES ('e-1', 5000)");
        });

    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      Optional<ExecutionRecord> e = s.transact(tx -> tx.execution("e-1"));
      assertThat(e).isPresent();
      assertThat(e.get().status()).isEqualTo(ExecutionStatus.WAITING);
      assertThat(e.get().claimEpoch()).isEqualTo(3);
      List<StepRecord> steps = s.transact(tx -> tx.steps("e-1"));
      assertThat(steps)
          .containsExactly(
              new StepRecord(
                  "e-1", 0, "charge", StepKind.STEP, new StepOutcome.Value("\"paid\""), 15));
      assertThat(s.transact(tx -> tx.nextTimer()).getAsLong()).isEqualTo(5000);

      s.transact(
          tx -> {
            tx.putDocument(new DocumentRecord("tab", "t-1", 1, "{\"n\":1}", tx.now()));
            return null;
          });
      Optional<DocumentRecord> d = s.transact(tx -> tx.document("tab", "t-1"));
      assertThat(d.map(DocumentRecord::state)).contains("{\"n\":1}");
    }
    assertThat(meta(file, "schema")).isEqualTo("2");

    Path backup = dir.resolve("workflows.db.schema-1.bak");
    assertThat(backup).exists();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backup)))
        .as("the copy is as private as the store")
        .isEqualTo("rw-------");
    assertThat(meta(backup, "schema")).isEqualTo("1");
    assertThat(tables(backup)).contains("wf_execution").doesNotContain("wf_document");
    assertThat(ids(backup)).containsExactly("e-1");
    assertThat(dir.resolve("workflows.db.schema-1.bak.partial")).doesNotExist();

    long copied = Files.getLastModifiedTime(backup).toMillis();
    try (WorkflowSession again = SqliteWorkflowStore.directory(dir).open()) {
      Optional<ExecutionRecord> e = again.transact(tx -> tx.execution("e-1"));
      assertThat(e).isPresent();
    }
    assertThat(Files.getLastModifiedTime(backup).toMillis())
        .as("a migrated store is opened without another copy")
        .isEqualTo(copied);
  }

  private static String meta(Path file, String key) throws SQLException {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("SELECT value FROM sluice_meta WHERE key = '" + key + "'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static List<String> tables(Path file) throws SQLException {
    return column(file, "SELECT name FROM sqlite_master WHERE type = 'table'");
  }

  private static List<String> ids(Path file) throws SQLException {
    return column(file, "SELECT id FROM wf_execution");
  }

  private static List<String> column(Path file, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = db.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
