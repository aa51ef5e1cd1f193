/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static dev.sluice.testkit.workflow.Tab.TABS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.workflow.Tab;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook in one process wakes a workflow waiting on a durable store in another: the change's
 * transaction queues the execution, its pulse wakes the worker JVM, which finishes it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StoreWakeProcessTest {
  @TempDir Path root;
  private final WorkerProcesses workers = new WorkerProcesses();

  @AfterEach
  void killLeftovers() {
    workers.close();
  }

  @Test
  void aChangeInOneProcessWakesTheWorkflowWaitingInAnother() throws Exception {
    Path store = root.resolve("store");
    Process worker = workers.startMain(StoreWaitWorker.class, store.toString());
    assertThat(workers.line(worker)).isEqualTo("submitted");
    WorkerProcesses.awaitStatus(store, "w-1", ExecutionStatus.WAITING);

    Workflow<String, Long> none =
        Workflow.define(
            "unused",
            String.class,
            Long.class,
            (ctx, in) -> {
              throw new AssertionError("the webhook's runtime runs nothing");
            });
    try (WorkflowRuntime webhook =
        WorkflowRuntime.builder()
            .store(SqliteWorkflowStore.directory(store))
            .register(none)
            .build()) {
      webhook.store(TABS, "tab-1").update(Tab::counted);
      webhook.store(TABS, "tab-1").update("payment-1", t -> t.withStatus("paid"));
    }

    assertThat(workers.line(worker)).isEqualTo("result 2");
    assertThat(worker.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(worker.exitValue()).isZero();
  }
}
