/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Units of work that share a transaction stay separate: each caller gets its own result or its own
 * exception, and a refused unit's writes are gone while its neighbours' are committed.
 */
class GroupCommitTest {
  private static final int THREADS = 8;
  private static final int UNITS = 60;

  @TempDir Path root;

  @Test
  void concurrentUnitsKeepTheirOwnResultsAndARefusalUndoesOnlyItsOwnWrites() throws Exception {
    SqliteWorkflowStore store = SqliteWorkflowStore.directory(root.resolve("store"));
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (WorkflowSession session = store.open()) {
      List<Future<?>> callers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        callers.add(pool.submit(() -> runUnits(session, thread)));
      }
      for (Future<?> f : callers) {
        f.get(2, TimeUnit.MINUTES);
      }
      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < UNITS; i++) {
          String id = id(t, i);
          Optional<ExecutionRecord> row = session.transact(tx -> tx.execution(id));
          assertThat(row.isPresent()).as("row of %s", id).isEqualTo(!refused(i));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anInterruptedCallerKeepsItsFlagAndTheStoreKeepsWorkingForEveryone() throws Exception {
    Path dir = root.resolve("interrupted");
    try (WorkflowSession first = SqliteWorkflowStore.directory(dir).open();
        WorkflowSession second = SqliteWorkflowStore.directory(dir).open()) {
      Thread.currentThread().interrupt();
      try {
        String answer =
            first.transact(
                tx -> {
                  tx.putExecution(ExecutionRecord.queued("i-1", "w", 1, "{}", tx.now()));
                  return "written";
                });
        assertThat(answer).isEqualTo("written");
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      Optional<ExecutionRecord> seen = second.transact(tx -> tx.execution("i-1"));
      assertThat(seen).isPresent();
      Optional<ExecutionRecord> again = first.transact(tx -> tx.execution("i-1"));
      assertThat(again).isPresent();
    }
  }

  @Test
  void aUnitThatThrowsAnErrorLosesItsWritesAndTheSessionGoesOn() throws Exception {
    try (WorkflowSession session = SqliteWorkflowStore.directory(root.resolve("error")).open()) {
      assertThatThrownBy(
              () ->
                  session.transact(
                      tx -> {
                        tx.putExecution(ExecutionRecord.queued("x-1", "w", 1, "{}", tx.now()));
                        throw new AssertionError("unit gave up");
                      }))
          .isInstanceOf(AssertionError.class)
          .hasMessage("unit gave up");
      Optional<ExecutionRecord> gone = session.transact(tx -> tx.execution("x-1"));
      assertThat(gone).isEmpty();
      String next =
          session.transact(
              tx -> {
                tx.putExecution(ExecutionRecord.queued("x-2", "w", 1, "{}", tx.now()));
                return "next";
              });
      assertThat(next).isEqualTo("next");
    }
  }

  private static Void runUnits(WorkflowSession session, int thread) {
    for (int i = 0; i < UNITS; i++) {
      String id = id(thread, i);
      boolean refuse = refused(i);
      if (refuse) {
        assertThatThrownBy(
                () ->
                    session.transact(
                        tx -> {
                          tx.putExecution(ExecutionRecord.queued(id, "w", 1, "{}", tx.now()));
                          throw new IllegalStateException("refused " + id);
                        }))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("refused " + id);
      } else {
        String answer =
            session.transact(
                tx -> {
                  tx.putExecution(ExecutionRecord.queued(id, "w", 1, "{}", tx.now()));
                  return "wrote " + id;
                });
        assertThat(answer).isEqualTo("wrote " + id);
      }
    }
    return null;
  }

  private static boolean refused(int i) {
    return i % 5 == 3;
  }

  private static String id(int thread, int i) {
    return "e-" + thread + "-" + i;
  }
}
