/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.SluiceException;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.SubmitOptions;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.WorkflowTimeoutException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Execution timeouts: the deadline is stored, on the store's clock, and enforced wherever the
 * execution stands (sleeping on a longer timer, queued with no worker for its workflow, running a
 * step), by whichever runtime on the store claims next, with no poll.
 */
public abstract class TimeoutCases extends WorkflowCase {
  protected TimeoutCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private static void assertTimedOut(Execution<?> run, Duration limit) {
    assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowTimeoutException.class)
        .isInstanceOf(SluiceException.class)
        .hasMessageContaining("'" + run.id() + "'")
        .hasMessageContaining(limit.toString())
        .satisfies(
            t -> {
              WorkflowTimeoutException e = (WorkflowTimeoutException) t;
              assertThat(e.executionId()).isEqualTo(run.id());
              assertThat(e.executionTimeout()).isEqualTo(limit);
            });
  }

  @Test
  void aTimeoutEndsAnExecutionSleepingOnALongerTimer() {
    AtomicInteger after = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "napper",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.sleep("nap", Duration.ofHours(1));
              return ctx.step("after", String.class, () -> "woke " + after.incrementAndGet());
            });
    Duration limit = Duration.ofMinutes(10);
    WorkflowRuntime rt = build(b -> b.executionTimeout("napper", limit), 1, wf);
    rt.start();
    Execution<String> run = rt.submit(wf, "t-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);

    clock.advance(limit.minusMillis(1));
    probe();
    assertThat(run.status()).as("not before its deadline").isEqualTo(ExecutionStatus.WAITING);

    clock.advance(Duration.ofMillis(1));
    awaitStatus(run, ExecutionStatus.TIMED_OUT);
    assertTimedOut(run, limit);

    clock.advance(Duration.ofHours(1));
    probe();
    assertThat(after).as("nothing after the sleep ran").hasValue(0);
    assertThat(run.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
    assertThat(watch().steps("t-1")).extracting(s -> s.key()).containsExactly("nap");
  }

  @Test
  void aTimeoutEndsAQueuedExecutionThatNoWorkerRuns() {
    Workflow<String, String> wf =
        Workflow.define("unstaffed", String.class, String.class, (ctx, in) -> in);
    Duration limit = Duration.ofMinutes(5);
    // The submitter registers the workflow but never starts; the only started runtime runs other
    // workflows, so the execution waits in the queue. The submit's timeout beats the default.
    WorkflowRuntime submitter =
        build(b -> b.executionTimeout("unstaffed", Duration.ofHours(1)), 1, wf);
    runtime();
    Execution<String> run =
        submitter.submit(wf, "t-2", "x", SubmitOptions.builder().executionTimeout(limit).build());
    assertThat(run.status()).isEqualTo(ExecutionStatus.QUEUED);

    clock.advance(limit.minusMillis(1));
    probe();
    assertThat(run.status()).as("not before its deadline").isEqualTo(ExecutionStatus.QUEUED);

    clock.advance(Duration.ofMillis(1));
    awaitStatus(run, ExecutionStatus.TIMED_OUT);
    assertTimedOut(run, limit);
    assertThat(submitter.submit(wf, "t-2", "x").status())
        .as("a repeated submit returns the timed-out execution")
        .isEqualTo(ExecutionStatus.TIMED_OUT);
  }

  @Test
  void aStepThatFinishesAfterTheDeadlineIsNotRecorded() throws Exception {
    SlowStepWorkflow slow = new SlowStepWorkflow("overrun", "next");
    CountDownLatch entered = slow.entered;
    CountDownLatch release = slow.release;
    AtomicInteger slowRuns = slow.slowRuns;
    AtomicInteger nextRuns = slow.nextRuns;
    Workflow<String, String> wf = slow.workflow;
    Duration limit = Duration.ofMinutes(1);
    // Another runtime fires the deadline while this one's only worker is inside the body.
    runtime();
    WorkflowRuntime rt = build(b -> b.executionTimeout("overrun", limit), 1, wf);
    rt.start();
    Execution<String> run = rt.submit(wf, "t-3", "x");
    await(entered);

    clock.advance(limit);
    awaitStatus(run, ExecutionStatus.TIMED_OUT);
    assertThat(slowRuns).as("the running body was not interrupted or rerun").hasValue(1);
    release.countDown();
    // One worker: the probe runs only after the overrunning body returned and its commit was
    // refused.
    probe();

    assertThat(watch().steps("t-3")).as("the late result is not recorded").isEmpty();
    assertThat(nextRuns).as("no step after the deadline").hasValue(0);
    assertThat(run.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
    assertTimedOut(run, limit);
  }

  @Test
  void aLateStepIsRefusedEvenWhenNoTimerFiredYet() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger nextRuns = new AtomicInteger();
    Workflow<String, String> wf =
        Workflow.define(
            "alone",
            String.class,
            String.class,
            (ctx, in) -> {
              String s =
                  ctx.step(
                      "slow",
                      String.class,
                      () -> {
                        entered.countDown();
                        await(release);
                        return "slow";
                      });
              return s + ctx.step("next", String.class, () -> "next" + nextRuns.incrementAndGet());
            });
    Duration limit = Duration.ofSeconds(30);
    // The only runtime's only worker is inside the body: nobody fires the deadline timer, so the
    // worker's own commit must see that the deadline passed.
    WorkflowRuntime rt = build(b -> b.executionTimeout("alone", limit), 1, wf);
    rt.start();
    Execution<String> run = rt.submit(wf, "t-4", "x");
    await(entered);
    clock.advance(limit.plusMillis(1));
    release.countDown();

    awaitStatus(run, ExecutionStatus.TIMED_OUT);
    assertTimedOut(run, limit);
    probe();
    assertThat(watch().steps("t-4")).as("the late result is not recorded").isEmpty();
    assertThat(nextRuns).hasValue(0);
  }

  @Test
  void anExecutionThatFinishesInTimeIsUntouchedByItsDeadline() {
    Workflow<String, String> wf =
        Workflow.define("quick", String.class, String.class, (ctx, in) -> in + "!");
    WorkflowRuntime rt = build(b -> b.executionTimeout("quick", Duration.ofMinutes(1)), 1, wf);
    rt.start();
    Execution<String> run = rt.submit(wf, "t-5", "x");
    assertThat(result(run)).isEqualTo("x!");
    clock.advance(Duration.ofMinutes(2));
    probe();
    assertThat(run.status()).isEqualTo(ExecutionStatus.COMPLETED);
    assertThat(result(run)).isEqualTo("x!");
  }
}
