/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.RetryPolicy;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.StepOptions;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WorkflowMetrics} on a real SQLite workflow store: executions by status from the store's
 * counts, and each step body's run timed and counted by workflow and outcome.
 */
class WorkflowMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private static final Workflow<String, String> FINE =
      Workflow.define(
          "fine",
          String.class,
          String.class,
          (ctx, in) -> {
            String a = ctx.step("a", String.class, () -> "a " + in);
            return ctx.step("b", String.class, () -> a + " b");
          });

  private static final Workflow<String, String> BROKEN =
      Workflow.define(
          "broken",
          String.class,
          String.class,
          (ctx, in) ->
              ctx.step(
                  "charge",
                  StepOptions.retry(
                      RetryPolicy.builder()
                          .maxAttempts(2)
                          .delays(Duration.ofMillis(1), Duration.ofMillis(1))
                          .jitter(0)
                          .build()),
                  String.class,
                  step -> {
                    throw new IOException("declined on attempt " + step.attempt());
                  }));

  private static final Workflow<String, String> HELD =
      Workflow.define("held", String.class, String.class, (ctx, in) -> in);

  @Test
  void countsExecutionsByStatusAndTimesStepsByOutcome() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (WorkflowRuntime rt =
            WorkflowRuntime.builder()
                .store(SqliteWorkflowStore.directory(dir.resolve("flows")))
                .register(FINE)
                .register(BROKEN)
                .build();
        WorkflowRuntime idle =
            WorkflowRuntime.builder()
                .store(SqliteWorkflowStore.directory(dir.resolve("flows")))
                .register(HELD)
                .build();
        WorkflowMetrics metrics = WorkflowMetrics.of(rt)) {
      metrics.bindTo(registry);
      // Submitted through a runtime that never starts, and not registered on the other: queued.
      idle.submit(HELD, "held-1", "x");
      rt.start();
      assertThat(rt.submit(FINE, "fine-1", "x").result(WAIT)).isEqualTo("a x b");
      Execution<String> broken = rt.submit(BROKEN, "broken-1", "x");
      assertThatThrownBy(() -> broken.result(WAIT)).isInstanceOf(WorkflowFailedException.class);

      assertThat(steps(registry, "fine", "succeeded")).isEqualTo(2);
      assertThat(steps(registry, "broken", "retrying")).isEqualTo(1);
      assertThat(steps(registry, "broken", "failed")).isEqualTo(1);
      Timer fine =
          registry
              .get("sluice.workflow.step.duration")
              .tags("workflow", "fine", "outcome", "succeeded")
              .timer();
      assertThat(fine.count()).isEqualTo(2);
      assertThat(fine.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();

      assertThat(executions(registry, "completed")).isEqualTo(1);
      assertThat(executions(registry, "failed")).isEqualTo(1);
      assertThat(executions(registry, "queued")).isEqualTo(1);
      assertThat(executions(registry, "running")).isZero();

      metrics.close();
      assertThat(rt.submit(FINE, "fine-2", "y").result(WAIT)).isEqualTo("a y b");
      assertThat(steps(registry, "fine", "succeeded"))
          .as("closed: no longer counting")
          .isEqualTo(2);
    }
  }

  private static double steps(SimpleMeterRegistry registry, String workflow, String outcome) {
    return registry
        .get("sluice.workflow.steps")
        .tags("workflow", workflow, "outcome", outcome)
        .counter()
        .count();
  }

  private static double executions(SimpleMeterRegistry registry, String status) {
    return registry.get("sluice.workflow.executions").tag("status", status).gauge().value();
  }
}
