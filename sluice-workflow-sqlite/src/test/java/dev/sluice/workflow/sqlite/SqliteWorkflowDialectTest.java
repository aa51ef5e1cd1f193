/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.jdbc.WorkflowDialect.ColumnType;
import dev.sluice.workflow.jdbc.WorkflowRows;
import dev.sluice.workflow.jdbc.WorkflowTables;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's dialect of the JDBC workflow rows: the SQL it renders, read as text and run on a real
 * SQLite database, and the tables it creates, which must be the ones every store of schema 2 was
 * created with before the rows moved to the JDBC core, so an existing file opens unchanged.
 */
class SqliteWorkflowDialectTest {
  private static final SqliteWorkflowDialect SQLITE = SqliteWorkflowDialect.INSTANCE;

  /** The statements of schema 1 and of the migration to 2, as the SQLite store wrote them. */
  private static final List<String> SCHEMA_2_AS_WRITTEN =
      List.of(
          "CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
          "CREATE TABLE wf_execution (id TEXT PRIMARY KEY, workflow TEXT NOT NULL,"
              + " version INTEGER NOT NULL, status TEXT NOT NULL, input TEXT NOT NULL,"
              + " output TEXT, failure TEXT, claim_owner TEXT, claim_epoch INTEGER NOT NULL,"
              + " created_at INTEGER NOT NULL, queued_at INTEGER NOT NULL,"
              + " updated_at INTEGER NOT NULL, deadline_at INTEGER NOT NULL)",
          "CREATE INDEX wf_execution_by_status ON wf_execution (status, queued_at, id)",
          "CREATE INDEX wf_execution_finished ON wf_execution (updated_at, id) WHERE status IN"
              + " ('completed', 'failed', 'cancelled', 'timed_out')",
          "CREATE TABLE wf_step (execution_id TEXT NOT NULL, position INTEGER NOT NULL,"
              + " step_key TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT NULL,"
              + " payload TEXT, failure TEXT, attempts INTEGER NOT NULL, at INTEGER NOT NULL,"
              + " recorded_at INTEGER NOT NULL, PRIMARY KEY (execution_id, position))"
              + " WITHOUT ROWID",
          "CREATE TABLE wf_timer (execution_id TEXT PRIMARY KEY, due_at INTEGER NOT NULL)",
          "CREATE INDEX wf_timer_by_due ON wf_timer (due_at, execution_id)",
          "ALTER TABLE wf_step ADD COLUMN store TEXT",
          "ALTER TABLE wf_step ADD COLUMN document_id TEXT",
          "CREATE TABLE wf_document (store TEXT NOT NULL, id TEXT NOT NULL,"
              + " version INTEGER NOT NULL, state TEXT NOT NULL, updated_at INTEGER NOT NULL,"
              + " PRIMARY KEY (store, id)) WITHOUT ROWID",
          "CREATE TABLE wf_waiter (execution_id TEXT PRIMARY KEY, step_key TEXT NOT NULL,"
              + " store TEXT NOT NULL, document_id TEXT NOT NULL, paths TEXT NOT NULL,"
              + " since_version INTEGER NOT NULL)",
          "CREATE INDEX wf_waiter_by_document ON wf_waiter (store, document_id, execution_id)",
          "CREATE TABLE wf_receipt (store TEXT NOT NULL, document_id TEXT NOT NULL,"
              + " key TEXT NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL,"
              + " recorded_at INTEGER NOT NULL, PRIMARY KEY (store, document_id, key))"
              + " WITHOUT ROWID",
          "CREATE INDEX wf_receipt_by_time ON wf_receipt (recorded_at)");

  @TempDir Path root;

  @Test
  void theTablesAreTheOnesEveryStoreOfSchemaTwoWasCreatedWith() {
    WorkflowTables tables = new WorkflowTables(SQLITE, "test");
    assertThat(WorkflowTables.VERSION).isEqualTo(2);
    assertThat(tables.creation(2)).containsExactlyElementsOf(SCHEMA_2_AS_WRITTEN);
    assertThat(tables.creation(1)).containsExactlyElementsOf(SCHEMA_2_AS_WRITTEN.subList(0, 7));
  }

  @Test
  void fragmentsAreSqlitesOwn() {
    assertThat(
            SQLITE.upsert("wf_timer", List.of("execution_id", "due_at"), List.of("execution_id")))
        .isEqualTo("INSERT OR REPLACE INTO wf_timer (execution_id, due_at) VALUES (?, ?)");
    assertThat(SQLITE.limit()).isEqualTo("LIMIT ?");
    assertThat(SQLITE.claimLock()).as("the gate serializes claims").isEmpty();
    assertThat(SQLITE.beginWrite()).isEqualTo("BEGIN IMMEDIATE");
    assertThat(SQLITE.indexHint("wf_execution_finished"))
        .isEqualTo(" INDEXED BY wf_execution_finished");
    assertThat(SQLITE.keyOrderedTable()).isEqualTo(" WITHOUT ROWID");
    assertThat(SQLITE.type(ColumnType.LONG)).isEqualTo("INTEGER");
    assertThat(SQLITE.type(ColumnType.BYTES)).isEqualTo("BLOB");
    assertThat(SQLITE.type(ColumnType.IDENTITY)).isEqualTo("INTEGER PRIMARY KEY AUTOINCREMENT");
  }

  @Test
  void theClaimIsOneOrderedLimitedQueryOnTheQueueIndex() throws SQLException {
    Map<String, List<Integer>> versions = new LinkedHashMap<>();
    versions.put("a", List.of(1, 2));
    versions.put("b", List.of(1));
    String query = WorkflowRows.claimQuery(versions, SQLITE);
    assertThat(query)
        .isEqualTo(
            "SELECT id, workflow, version, status, input, output, failure, claim_owner,"
                + " claim_epoch, created_at, queued_at, updated_at, deadline_at FROM wf_execution"
                + " WHERE status = 'queued' AND deadline_at > ? AND ((workflow = ? AND version IN"
                + " (?, ?)) OR (workflow = ? AND version IN (?))) ORDER BY queued_at, id LIMIT ?");
    try (Connection db = DriverManager.getConnection("jdbc:sqlite::memory:");
        Statement st = db.createStatement()) {
      new WorkflowTables(SQLITE, "test").create(db, WorkflowTables.VERSION);
      List<String> plan = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("EXPLAIN QUERY PLAN " + query)) {
        while (rs.next()) {
          plan.add(rs.getString("detail"));
        }
      }
      assertThat(String.join("\n", plan))
          .as("read in queue order from the index, never sorted")
          .contains("wf_execution_by_status")
          .doesNotContain("TEMP B-TREE");
    }
  }

  @Test
  void aMissingTableReadsAsNoStore() throws SQLException {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      assertThat(new WorkflowTables(SQLITE, "test").meta(db, "format")).isNull();
    }
  }

  @Test
  void aStoreWrittenWithTheEarlierStatementsOpensAndClaims() throws Exception {
    Path dir = root.resolve("written-before");
    EarlierStores.write(
        dir,
        (db, st) -> {
          for (String sql : SCHEMA_2_AS_WRITTEN) {
            st.execute(sql);
          }
          st.execute(
              "INSERT INTO sluice_meta (key, value) VALUES ('format', 'sluice-workflow-store')");
          st.execute("INSERT INTO sluice_meta (key, value) VALUES ('schema', '2')");
          st.execute(
              "INSERT INTO wf_execution (id, workflow, version, status, input, claim_epoch,"
                  + " created_at, queued_at, updated_at, deadline_at)"
                  + " VALUES ('e-1', 'checkout', 1, 'queued', '\"x\"', 3, 10, 10, 20, "
                  + ExecutionRecord.NO_DEADLINE
                  + ")");
        });

    try (WorkflowSession s = SqliteWorkflowStore.directory(dir).open()) {
      List<ExecutionRecord> claimed =
          s.transact(tx -> tx.claimNext(Set.of(new WorkflowVersion("checkout", 1)), 5));
      assertThat(claimed).hasSize(1);
      assertThat(claimed.get(0).status()).isEqualTo(ExecutionStatus.RUNNING);
      assertThat(claimed.get(0).claimEpoch()).isEqualTo(4);
      assertThat(claimed.get(0).claimOwner()).isEqualTo(s.ownerId());
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no migration, so no backup")
          .noneMatch(n -> n.endsWith(".bak"));
    }
  }
}
