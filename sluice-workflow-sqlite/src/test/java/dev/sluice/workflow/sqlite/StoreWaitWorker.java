/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static dev.sluice.testkit.workflow.Tab.TABS;

import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A worker JVM of {@link StoreWakeProcessTest}. Argument: {@code STORE}. It submits execution
 * {@code w-1}, which waits until tab {@code tab-1} is paid, prints {@code submitted}, and prints
 * {@code result VERSION} when the execution finishes.
 */
public final class StoreWaitWorker {
  private StoreWaitWorker() {}

  public static void main(String[] args) throws Exception {
    Workflow<String, Long> untilPaid =
        Workflow.define(
            "until-paid",
            String.class,
            Long.class,
            (ctx, tabId) ->
                ctx.store(TABS, tabId)
                    .awaitCondition("paid", List.of("/status"), t -> t.status().equals("paid"))
                    .version());
    try (WorkflowRuntime runtime =
        WorkflowRuntime.builder()
            .store(SqliteWorkflowStore.directory(Path.of(args[0])))
            .register(untilPaid)
            .build()) {
      runtime.start();
      var run = runtime.submit(untilPaid, "w-1", "tab-1");
      System.out.println("submitted");
      System.out.flush();
      System.out.println("result " + run.result(Duration.ofMinutes(2)));
      System.out.flush();
    }
  }
}
