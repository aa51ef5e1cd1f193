/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.postgres.PostgresStore;
import dev.sluice.postgres.PostgresWorkflowStore;
import dev.sluice.postgres.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One rule of owner liveness for limiter pools and workflow stores alike, on the real server: a
 * free advisory lock proves an owner dead only if the owner took it under the server's current
 * start. The owners here are rows whose lock nobody holds: one as a live JVM leaves it right after
 * a server restart (its lock taken under the previous start, its heartbeat running), one whose lock
 * was taken under this start (its JVM died).
 */
class OwnerRowsTest {
  private static final String PREVIOUS_START = "'-infinity'";
  private static final String THIS_START = "pg_postmaster_start_time()";

  private final TestDatabase db = TestDatabase.create(4);
  private final String schema = db.schema();
  private final Tables tables = new Tables(schema, "sluice_");
  private final HikariDataSource dataSource = db.dataSource();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void aLimiterOwnerWhoseLockWasTakenBeforeTheRestartIsNotDeadByItsFreeLock() throws Exception {
    createTables(
        Limiter.open(
            PostgresStore.builder(dataSource, "p").schema(schema).build(),
            LimiterConfig.builder().maxConcurrent(1).build()));
    PoolRows rows = new PoolRows(tables, "p", "pool p");
    try (Connection c = dataSource.getConnection()) {
      insertLimiterOwner(c, "pg-restarted-1", PREVIOUS_START);
      assertThat(rows.anyDeadOwner(c, Set.of())).as("a restart's free lock").isFalse();
      insertLimiterOwner(c, "pg-died-1", THIS_START);
      assertThat(rows.anyDeadOwner(c, Set.of("pg-restarted-1")))
          .as("a lock freed since this start")
          .isTrue();
    }
  }

  @Test
  void aWorkflowOwnerWhoseLockWasTakenBeforeTheRestartIsNotDeadByItsFreeLock() throws Exception {
    createTables(PostgresWorkflowStore.builder(dataSource).schema(schema).build().open());
    try (Connection c = dataSource.getConnection()) {
      insertWorkflowOwner(c, "pg-restarted-1", PREVIOUS_START);
      insertWorkflowOwner(c, "pg-died-1", THIS_START);
      c.setAutoCommit(false);
      assertThat(WorkflowOwners.dead(c, tables, "pg-restarted-1", false))
          .as("a restart's free lock")
          .isFalse();
      assertThat(WorkflowOwners.dead(c, tables, "pg-died-1", false))
          .as("a lock freed since this start")
          .isTrue();
      c.rollback();
      assertThat(WorkflowOwners.deleteDead(c, tables, Set.of())).isTrue();
      c.commit();
      assertThat(WorkflowOwners.dead(c, tables, "pg-restarted-1", false))
          .as("kept by the sweep of dead owners")
          .isFalse();
      assertThat(WorkflowOwners.dead(c, tables, "pg-died-1", false)).as("swept").isTrue();
      c.rollback();
    }
  }

  /**
   * Closes what created the tables before any row is inserted: a live owner's heartbeat also sweeps
   * dead owners, and would race the sweep under test.
   */
  private static void createTables(AutoCloseable opened) throws Exception {
    opened.close();
  }

  private void insertLimiterOwner(Connection c, String owner, String lockedIn) throws SQLException {
    insert(
        c,
        "INSERT INTO "
            + tables.owners()
            + " (owner_id, pool, lock_key, expires_at, locked_in)"
            + " VALUES (?, 'p', ?, clock_timestamp() + interval '1 hour', "
            + lockedIn
            + ")",
        owner);
  }

  private void insertWorkflowOwner(Connection c, String owner, String lockedIn)
      throws SQLException {
    insert(
        c,
        "INSERT INTO "
            + tables.workflowOwners()
            + " (owner_id, lock_key, expires_at, locked_in)"
            + " VALUES (?, ?, clock_timestamp() + interval '1 hour', "
            + lockedIn
            + ")",
        owner);
  }

  private static void insert(Connection c, String sql, String owner) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql)) {
      st.setString(1, owner);
      st.setLong(2, OwnerIds.lockKey(owner));
      st.executeUpdate();
    }
  }
}
