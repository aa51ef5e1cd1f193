/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.postgres.PostgresWorkflowStore;
import dev.sluice.postgres.TestDatabase;
import dev.sluice.workflow.jdbc.JdbcWorkflowTransaction;
import dev.sluice.workflow.jdbc.WorkflowRows;
import dev.sluice.workflow.spi.TimerRecord;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A claim's due timers read ahead of the store time, on the real server: the transaction answers
 * from them only when they tell every timer due at its time, and asks the database otherwise. The
 * database holds other timers than the read ahead, so each answer shows where it came from.
 */
class TimersReadAheadTest {
  private static final long NOW = 1_000_000;

  private final TestDatabase db = TestDatabase.create(2);
  private Connection c;
  private WorkflowRows rows;

  @BeforeEach
  void tables() throws Exception {
    PostgresWorkflowStore.builder(db.dataSource()).schema(db.schema()).build().open().close();
    c = db.dataSource().getConnection();
    c.setAutoCommit(false);
    rows =
        new WorkflowRows(
            c, "test", new PgWorkflowDialect(new Tables(db.schema(), "sluice_")), null);
    JdbcWorkflowTransaction setup = tx();
    setup.putTimer(new TimerRecord("in-db-due", NOW - 5));
    setup.putTimer(new TimerRecord("in-db-later", NOW + 5));
  }

  @AfterEach
  void drop() throws Exception {
    c.rollback();
    c.close();
    db.close();
  }

  private JdbcWorkflowTransaction tx() {
    return new JdbcWorkflowTransaction(rows, NOW, "me", owner -> false);
  }

  private static WorkflowRows.TimersAndOwners read(TimerRecord... due) {
    return new WorkflowRows.TimersAndOwners(List.of(due), Set.of("ahead-owner"), Map.of());
  }

  private List<String> due(WorkflowRows.TimersAndOwners ahead, long upTo, int read, int limit) {
    JdbcWorkflowTransaction tx = tx();
    tx.readAheadTimers(ahead, upTo, read);
    return tx.dueTimers(NOW, limit).stream().map(TimerRecord::executionId).toList();
  }

  @Test
  void aReadUpToALaterTimeThatEndedBeforeItsLimitAnswers() {
    JdbcWorkflowTransaction tx = tx();
    tx.readAheadTimers(read(new TimerRecord("ahead", NOW - 1)), NOW + 1_000, 64);
    assertThat(tx.dueTimers(NOW, 64)).extracting(TimerRecord::executionId).containsExactly("ahead");
    assertThat(tx.claimOwners("me")).as("the owners read with them").containsExactly("ahead-owner");
  }

  @Test
  void timersReadThatAreNotDueYetAreLeftOut() {
    assertThat(
            due(
                read(new TimerRecord("ahead", NOW), new TimerRecord("ahead-later", NOW + 1)),
                NOW + 1_000,
                2,
                64))
        .containsExactly("ahead");
  }

  @Test
  void aReadThatStoppedBeforeTheTimeAsksTheDatabase() {
    assertThat(due(read(new TimerRecord("ahead", NOW - 1)), NOW - 1, 64, 64))
        .containsExactly("in-db-due");
  }

  @Test
  void aReadThatReachedItsOwnLimitWithEveryTimerDueAsksTheDatabase() {
    assertThat(
            due(
                read(new TimerRecord("ahead-1", NOW - 2), new TimerRecord("ahead-2", NOW - 1)),
                NOW + 1_000,
                2,
                64))
        .containsExactly("in-db-due");
  }

  @Test
  void aSmallerLimitTakesTheEarliestOfTheRead() {
    assertThat(
            due(
                read(new TimerRecord("ahead-1", NOW - 2), new TimerRecord("ahead-2", NOW - 1)),
                NOW + 1_000,
                2,
                1))
        .containsExactly("ahead-1");
  }
}
