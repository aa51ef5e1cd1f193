/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.StoreFormatException;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The workflow tables' version in the schema-version table: a newer version is refused, naming
 * both, with nothing changed, and a running runtime stops writing when another Sluice moved the
 * tables on; stores that create the tables at once, on separate connections, create them once and
 * share them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorkflowSchemaVersionTest {
  private static final Workflow<String, String> ECHO =
      Workflow.define("echo", String.class, String.class, (ctx, s) -> s);

  private final TestDatabase db = TestDatabase.create();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  private WorkflowRuntime runtime(PostgresWorkflowStore store) {
    WorkflowRuntime r = WorkflowRuntime.builder().store(store).register(ECHO).build();
    r.start();
    return r;
  }

  @Test
  void tablesOfANewerVersionAreRefusedNamingBothVersionsAndNothingChanges() throws Exception {
    try (WorkflowRuntime r = runtime(db.workflows().build())) {
      assertThat(r.submit(ECHO, "e-1", "one").result(Duration.ofSeconds(30))).isEqualTo("one");
    }
    db.execute(
        "UPDATE \""
            + db.schema()
            + "\".sluice_schema_version SET version = 3 WHERE component = 'workflow'");
    List<String> before = contents();

    assertThatThrownBy(() -> runtime(db.workflows().build()))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(db.schema() + ".sluice_*")
        .hasMessageContaining("schema version '3'")
        .hasMessageContaining("reads versions 1 to 2")
        .hasMessageContaining("nothing was changed");
    assertThat(contents()).as("every table and row as it was").isEqualTo(before);
  }

  @Test
  void aSessionStopsWritingOnceAnotherSluiceMovedTheTablesOn() throws Exception {
    try (WorkflowSession session = db.workflows().build().open()) {
      Optional<ExecutionRecord> none = session.transact(tx -> tx.execution("none"));
      assertThat(none).isEmpty();
      db.execute(
          "UPDATE \""
              + db.schema()
              + "\".sluice_workflow_meta SET value = '3' WHERE key = 'schema'");
      assertThatThrownBy(() -> session.transact(tx -> tx.execution("none")))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("schema version '3'");
    }
  }

  @Test
  void storesThatCreateTheTablesAtOnceCreateThemOnce() throws Exception {
    int racers = 6;
    List<HikariDataSource> sources = new ArrayList<>();
    List<CompletableFuture<WorkflowSession>> opened = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    try {
      for (int i = 0; i < racers; i++) {
        HikariDataSource ds = db.dataSource(3);
        sources.add(ds);
        PostgresWorkflowStore store = PostgresWorkflowStore.builder(ds).schema(db.schema()).build();
        opened.add(
            CompletableFuture.supplyAsync(
                () -> {
                  TestDatabase.awaitQuietly(start);
                  return store.open();
                }));
      }
      start.countDown();
      List<WorkflowSession> sessions = new ArrayList<>();
      for (CompletableFuture<WorkflowSession> f : opened) {
        sessions.add(f.get(60, TimeUnit.SECONDS));
      }
      assertThat(contents())
          .contains("sluice_schema_version: workflow|2", "sluice_workflow_meta: schema|2")
          .filteredOn(line -> line.startsWith("sluice_workflow_owners: "))
          .hasSize(racers);
      sessions.forEach(WorkflowSession::close);
      assertThat(contents()).noneMatch(line -> line.startsWith("sluice_workflow_owners: "));
    } finally {
      sources.forEach(HikariDataSource::close);
    }
  }

  /** Every relation of the schema and the rows of the version and the store's tables. */
  private List<String> contents() throws SQLException {
    return db.contents(
        Map.of(
            "sluice_schema_version", "component || '|' || version",
            "sluice_workflow_meta", "key || '|' || value",
            "sluice_workflow_owners", "owner_id",
            "sluice_wf_execution", "id || '|' || status || '|' || claim_epoch"));
  }
}
