/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.logging;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import java.time.Duration;

/**
 * The main class {@link WorkflowLoggingProcessTest} runs in a JVM of its own: starts a runtime,
 * runs one execution that completes and one whose step fails, closes the runtime, and prints on
 * stdout what the executions ended as.
 */
public final class WorkflowLogProbe {
  private WorkflowLogProbe() {}

  public static void main(String[] args) {
    Workflow<String, String> fine =
        Workflow.define("fine", String.class, String.class, (ctx, in) -> "done " + in);
    Workflow<String, String> broken =
        Workflow.define(
            "broken",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "charge",
                    String.class,
                    () -> {
                      throw new IllegalStateException("probe declined");
                    }));
    String outcome;
    try (WorkflowRuntime rt =
        WorkflowRuntime.builder()
            .store(MemoryWorkflowStore.named("log-probe"))
            .register(fine)
            .register(broken)
            .build()) {
      rt.start();
      outcome = rt.submit(fine, "ok-1", "x").result(Duration.ofSeconds(30));
      Execution<String> bad = rt.submit(broken, "bad-1", "x");
      try {
        bad.result(Duration.ofSeconds(30));
      } catch (WorkflowFailedException e) {
        outcome += ", failed";
      }
    }
    System.out.println("outcome=" + outcome);
  }
}
