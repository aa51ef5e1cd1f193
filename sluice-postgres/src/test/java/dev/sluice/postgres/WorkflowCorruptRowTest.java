/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A step row damaged outside Sluice is reported by name when a claim reads it with its execution
 * (PostgreSQL reads a claimed execution's steps in the claim's own statement) and stops only that
 * execution: the steps read with the claim are mapped as a separate read maps them.
 */
@Timeout(60)
class WorkflowCorruptRowTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  private final TestDatabase db = TestDatabase.create();

  private final Workflow<String, String> echo =
      Workflow.define(
          "echo",
          String.class,
          String.class,
          (ctx, in) -> {
            String a = ctx.step("say", String.class, () -> "said " + in);
            return ctx.step("again", String.class, () -> a + " again");
          });

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void anUnreadableStepReadWithItsClaimFailsItsExecutionAndTheOthersRun() throws Exception {
    PostgresWorkflowStore store = db.workflows().build();
    try (WorkflowSession s = store.open()) {
      s.transact(
          tx -> {
            // e-1 and e-3 were interrupted after their first step (re-queued with it recorded).
            for (String id : new String[] {"e-1", "e-2", "e-3"}) {
              tx.putExecution(ExecutionRecord.queued(id, "echo", 1, "\"" + id + "\"", tx.now()));
            }
            tx.putStep(step("e-1", 0, "say", "\"said x\""));
            tx.putStep(step("e-1", 1, "again", "\"said x again\""));
            tx.putStep(step("e-3", 0, "say", "\"said y\""));
            return null;
          });
    }
    db.execute(
        "UPDATE \""
            + db.schema()
            + "\".sluice_wf_step SET outcome = 'mangled'"
            + " WHERE execution_id = 'e-1' AND position = 0");

    try (WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store).register(echo).workers(1).build()) {
      rt.start();
      assertThat(rt.execution("e-2", String.class).orElseThrow().result(SAFETY))
          .isEqualTo("said e-2 again");
      assertThat(rt.execution("e-3", String.class).orElseThrow().result(SAFETY))
          .as("the step recorded before the claim is replayed, not run again")
          .isEqualTo("said y again");
      Execution<String> damaged = rt.execution("e-1", String.class).orElseThrow();
      assertThatThrownBy(() -> damaged.result(SAFETY))
          .isInstanceOf(WorkflowFailedException.class)
          .hasMessageContaining("step 0 of execution 'e-1' is unreadable")
          .hasMessageContaining("mangled");
      assertThat(damaged.status()).isEqualTo(ExecutionStatus.FAILED);
    }
  }

  private static StepRecord step(String execution, int position, String key, String value) {
    return new StepRecord(execution, position, key, StepKind.STEP, new StepOutcome.Value(value), 1);
  }
}
