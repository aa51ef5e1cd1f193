/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowCancelledException;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Cancellation of waiting and running executions. */
public abstract class CancelCases extends WorkflowCase {
  protected CancelCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @Test
  void aCancelledWaitingExecutionNeverWakes() {
    AtomicInteger after = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "wait-then-act",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleep("wait", Duration.ofHours(1));
              return ctx.step("act", String.class, () -> "acted " + after.incrementAndGet());
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "c-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);

    assertThat(run.cancel()).isTrue();
    assertThat(run.status()).isEqualTo(ExecutionStatus.CANCELLED);
    assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowCancelledException.class)
        .hasMessageContaining("c-1");
    clock.advance(Duration.ofHours(2));
    probe();
    assertThat(after).hasValue(0);
    assertThat(run.status()).isEqualTo(ExecutionStatus.CANCELLED);
    assertThat(rt.cancel("c-1")).as("a finished execution stays as it is").isFalse();
  }

  @Test
  void cancellingDuringAStepDiscardsItsResultAndRunsNoLaterStep() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger later = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "long-step",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.step(
                  "slow",
                  String.class,
                  () -> {
                    entered.countDown();
                    await(release);
                    return "done";
                  });
              return ctx.step("later", String.class, () -> "later " + later.incrementAndGet());
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "c-2", "x");
    await(entered);
    assertThat(rt.cancel("c-2")).isTrue();
    release.countDown();
    probe();
    assertThat(later).as("no step runs after the cancellation").hasValue(0);
    assertThat(watch().steps("c-2")).as("the running step's result was not recorded").isEmpty();
    assertThatThrownBy(() -> result(run)).isInstanceOf(WorkflowCancelledException.class);
  }

  @Test
  void cancellingAQueuedExecutionBeforeAnyWorkerStarts() {
    AtomicInteger runs = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "never",
            String.class,
            String.class,
            (ctx, in) -> ctx.step("run", String.class, () -> "ran " + runs.incrementAndGet()));
    WorkflowRuntime rt = build(1, wf);
    Execution<String> run = rt.submit(wf, "c-3", "x");
    assertThat(run.status()).isEqualTo(ExecutionStatus.QUEUED);
    assertThat(run.cancel()).isTrue();
    rt.start();
    probe();
    assertThat(runs).hasValue(0);
    assertThat(run.status()).isEqualTo(ExecutionStatus.CANCELLED);
  }
}
