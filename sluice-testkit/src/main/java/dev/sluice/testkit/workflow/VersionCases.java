/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Executions keep their version; {@code patched} separates old history from new. */
public abstract class VersionCases extends WorkflowCase {
  protected VersionCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @Test
  void anExecutionRunsTheVersionItStartedWith() {
    Workflow<String, String> v1 =
        Workflow.define(
            "greet",
            1,
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleep("pause", Duration.ofMinutes(1));
              return "v1 " + in;
            });
    Workflow<String, String> v2 =
        Workflow.define("greet", 2, String.class, String.class, (ctx, in) -> "v2 " + in);
    WorkflowRuntime rt = runtime(v1, v2);
    Execution<String> old = rt.submit(v1, "v-1", "a");
    awaitStatus(old, ExecutionStatus.WAITING);
    assertThat(result(rt.submit(v2, "v-2", "b"))).isEqualTo("v2 b");
    clock.advance(Duration.ofMinutes(1));
    assertThat(result(old)).isEqualTo("v1 a");
    assertThat(watch().execution("v-1").orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void patchedIsFalseForHistoryFromBeforeTheChangeAndTrueAfter() {
    Workflow<String, String> before =
        Workflow.define(
            "ship",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.step("pack", String.class, () -> "packed");
              ctx.sleep("pause", Duration.ofMinutes(1));
              return a + ctx.step("send", String.class, () -> "+sent");
            });
    Workflow<String, String> after =
        Workflow.define(
            "ship",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.step("pack", String.class, () -> "packed");
              if (ctx.patched("insure")) {
                a += ctx.step("insure", String.class, () -> "+insured");
              }
              ctx.sleep("pause", Duration.ofMinutes(1));
              return a + ctx.step("send", String.class, () -> "+sent");
            });
    WorkflowRuntime old = runtime(before);
    Execution<String> running = old.submit(before, "p-1", "x");
    awaitStatus(running, ExecutionStatus.WAITING);
    old.close();

    WorkflowRuntime updated = runtime(after);
    Execution<String> fresh = updated.submit(after, "p-2", "x");
    awaitStatus(fresh, ExecutionStatus.WAITING);
    clock.advance(Duration.ofMinutes(1));
    assertThat(result(updated.execution("p-1", String.class).orElseThrow()))
        .as("old history takes the old path")
        .isEqualTo("packed+sent");
    assertThat(result(fresh)).isEqualTo("packed+insured+sent");
  }
}
