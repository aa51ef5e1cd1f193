/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.StoreFormatException;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowCodecException;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows damaged outside Sluice are reported by name and stop only the execution they belong to: the
 * runtime goes on with every other execution.
 */
@Timeout(60)
class CorruptRowTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  @TempDir Path dir;

  private final Workflow<String, String> echo =
      Workflow.define(
          "echo",
          String.class,
          String.class,
          (ctx, in) -> ctx.step("say", String.class, () -> "said " + in));

  @Test
  void anUnreadableStepFailsItsExecutionAndTheNextOneRuns() throws Exception {
    SqliteWorkflowStore store = SqliteWorkflowStore.directory(dir);
    try (WorkflowSession s = store.open()) {
      s.transact(
          tx -> {
            tx.putExecution(ExecutionRecord.queued("e-1", "echo", 1, "\"a\"", tx.now()));
            tx.putStep(
                new StepRecord("e-1", 0, "say", StepKind.STEP, new StepOutcome.Value("\"x\""), 1));
            tx.putExecution(ExecutionRecord.queued("e-2", "echo", 1, "\"b\"", tx.now() + 1));
            return null;
          });
    }
    sql("UPDATE wf_step SET outcome = 'mangled' WHERE execution_id = 'e-1'");

    try (WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store).register(echo).workers(1).build()) {
      rt.start();
      Execution<String> healthy = rt.execution("e-2", String.class).orElseThrow();
      assertThat(healthy.result(SAFETY)).isEqualTo("said b");
      Execution<String> damaged = rt.execution("e-1", String.class).orElseThrow();
      assertThat(damaged.status()).isEqualTo(ExecutionStatus.FAILED);
      assertThatThrownBy(() -> damaged.result(Duration.ZERO))
          .isInstanceOf(WorkflowFailedException.class)
          .hasMessageContaining("step 0 of execution 'e-1' is unreadable")
          .hasMessageContaining("mangled");
    }
  }

  @Test
  void anUnreadableExecutionIsReportedByNameAndItsTimerBlocksNothing() throws Exception {
    SqliteWorkflowStore store = SqliteWorkflowStore.directory(dir);
    try (WorkflowSession s = store.open()) {
      s.transact(
          tx -> {
            tx.putExecution(
                ExecutionRecord.queued("e-3", "echo", 1, "\"c\"", tx.now())
                    .unclaimed(ExecutionStatus.WAITING, tx.now()));
            tx.putTimer(new TimerRecord("e-3", tx.now()));
            tx.putExecution(ExecutionRecord.queued("e-4", "echo", 1, "\"d\"", tx.now() + 1));
            return null;
          });
    }
    sql("UPDATE wf_execution SET status = 'dozing' WHERE id = 'e-3'");

    try (WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store).register(echo).workers(1).build()) {
      rt.start();
      assertThat(rt.execution("e-4", String.class).orElseThrow().result(SAFETY))
          .isEqualTo("said d");
      assertThatThrownBy(() -> rt.execution("e-3", String.class))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("execution 'e-3' is unreadable")
          .hasMessageContaining("dozing");
    }
  }

  @Test
  void anUnreadableOutputIsReportedWithItsExecution() throws Exception {
    SqliteWorkflowStore store = SqliteWorkflowStore.directory(dir);
    try (WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store).register(echo).workers(1).build()) {
      rt.start();
      assertThat(rt.submit(echo, "e-5", "e").result(SAFETY)).isEqualTo("said e");
    }
    sql("UPDATE wf_execution SET output = '{\"said\": [1, 2]}' WHERE id = 'e-5'");

    try (WorkflowRuntime rt = WorkflowRuntime.builder().store(store).register(echo).build()) {
      Execution<String> damaged = rt.execution("e-5", String.class).orElseThrow();
      assertThat(damaged.status()).isEqualTo(ExecutionStatus.COMPLETED);
      assertThatThrownBy(() -> damaged.result(Duration.ZERO))
          .isInstanceOf(WorkflowCodecException.class)
          .hasMessageContaining("output of execution 'e-5' of workflow 'echo' is unreadable")
          .hasMessageContaining("cannot read a");
    }
  }

  private void sql(String statement) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("workflows.db"));
        Statement st = db.createStatement()) {
      st.execute(statement);
    }
  }
}
