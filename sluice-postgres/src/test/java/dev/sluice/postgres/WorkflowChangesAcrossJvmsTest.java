/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What one JVM's commits tell another's sessions, through the server's notifications only: two
 * stores on two connection pools are two views of the store, as two JVMs are (a view hears its own
 * JVM's commits without the server). A submit and an end are told with their commits; a claim's and
 * a step's progress by a later, coalesced notice, which must still arrive.
 */
class WorkflowChangesAcrossJvmsTest {
  private static final long SAFETY_MILLIS = 30_000;

  private final TestDatabase db = TestDatabase.create(8);
  private final HikariDataSource otherPool = db.dataSource(8);
  private final WorkflowSession writer = db.workflows().build().open();
  private final WorkflowSession other =
      PostgresWorkflowStore.builder(otherPool).schema(db.schema()).build().open();
  private final LinkedBlockingQueue<Set<Change>> told = new LinkedBlockingQueue<>();

  @AfterEach
  void close() throws Exception {
    writer.close();
    other.close();
    otherPool.close();
    db.close();
  }

  /** Waits until the other view is told {@code kind}; what it was told before is passed over. */
  private void awaitTold(Change kind, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SAFETY_MILLIS);
    while (true) {
      Set<Change> next = told.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      assertThat(next).as("%s tells %s within the safety timeout", what, kind).isNotNull();
      if (next.contains(kind)) {
        return;
      }
    }
  }

  @Test
  void aSubmitAClaimAStepAndAnEndAreToldToAnotherJvmsSessions() throws Exception {
    other.onChange(told::add);

    writer.transact(
        tx -> {
          tx.putExecution(ExecutionRecord.queued("x-1", "w", 1, "\"x\"", tx.now()));
          return null;
        });
    awaitTold(Change.WORK, "a queued execution");

    ExecutionRecord claimed =
        writer.transact(tx -> tx.claimNext(Set.of(new WorkflowVersion("w", 1)), 1)).get(0);
    awaitTold(Change.PROGRESS, "a claim");

    writer.transact(
        tx -> {
          tx.putStep(
              new StepRecord(
                  "x-1", 0, "a", StepKind.STEP, new StepOutcome.Value("\"a\""), tx.now()));
          return null;
        });
    awaitTold(Change.PROGRESS, "a step");

    writer.transact(
        tx -> {
          tx.putExecution(claimed.finished(ExecutionStatus.COMPLETED, "\"y\"", null, tx.now()));
          return null;
        });
    awaitTold(Change.OUTCOME, "a completion");
  }
}
