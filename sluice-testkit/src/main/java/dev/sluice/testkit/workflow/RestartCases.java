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
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Executions outlive runtimes: found by id, resumed, taken over from dead owners, purged. */
public abstract class RestartCases extends WorkflowCase {
  protected RestartCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private final AtomicInteger aRuns = new AtomicInteger();
  private final AtomicInteger bRuns = new AtomicInteger();

  private final Workflow<String, String> twoSteps =
      Workflow.define(
          "two-steps",
          String.class,
          String.class,
          (ctx, in) -> {
            String a = ctx.step("a", String.class, () -> "a" + aRuns.incrementAndGet());
            ctx.sleep("pause", Duration.ofHours(1));
            return a + ctx.step("b", String.class, () -> "b" + bRuns.incrementAndGet());
          });

  @Test
  void aWaitingExecutionIsFoundAndFinishedAfterARestart() {
    WorkflowRuntime first = runtime(twoSteps);
    Execution<String> run = first.submit(twoSteps, "rs-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    first.close();

    WorkflowRuntime second = runtime(twoSteps);
    Execution<String> found = second.execution("rs-1", String.class).orElseThrow();
    assertThat(found.status()).isEqualTo(ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1).minusMillis(1));
    probe();
    assertThat(found.status())
        .as("the restart did not shorten the sleep")
        .isEqualTo(ExecutionStatus.WAITING);
    clock.advance(Duration.ofMillis(1));
    assertThat(result(found)).isEqualTo("a1b1");
    assertThat(aRuns).hasValue(1);
    assertThat(bRuns).hasValue(1);
  }

  @Test
  void aFinishedExecutionsResultIsReadAfterARestart() {
    WorkflowRuntime first = runtime(twoSteps);
    Execution<String> run = first.submit(twoSteps, "rs-2", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));
    assertThat(result(run)).isEqualTo("a1b1");
    first.close();

    WorkflowRuntime reader = build(1, twoSteps);
    assertThat(reader.execution("rs-2", String.class).orElseThrow().result(Duration.ZERO))
        .isEqualTo("a1b1");
  }

  @Test
  void theClaimOfADeadOwnerIsTakenOverAndItsCommittedStepsAreNotRunAgain() {
    List<String> keys = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "after-crash",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.step("a", String.class, () -> "a" + aRuns.incrementAndGet());
              return a
                  + ctx.step(
                      "b",
                      String.class,
                      step -> {
                        keys.add(step.idempotencyKey());
                        return "b" + bRuns.incrementAndGet();
                      });
            });
    // An owner claimed the execution, committed step a, ran step b's body and died before b's
    // commit: what a SIGKILL between a side effect and its commit leaves behind.
    WorkflowSession crashed = store().open();
    crashed.transact(
        tx -> {
          tx.putExecution(
              ExecutionRecord.queued("rs-3", "after-crash", 1, "\"x\"", tx.now())
                  .claimedBy(crashed.ownerId(), tx.now()));
          tx.putStep(
              new StepRecord(
                  "rs-3", 0, "a", StepKind.STEP, new StepOutcome.Value("\"a9\""), tx.now()));
          return null;
        });
    crashed.close();

    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.execution("rs-3", String.class).orElseThrow();
    assertThat(result(run)).isEqualTo("a9b1");
    assertThat(aRuns).as("the committed step is not run again").hasValue(0);
    assertThat(keys).as("the interrupted step runs again with its key").containsExactly("rs-3/b");
  }

  @Test
  void aDeadOwnersClaimIsFoundHoweverManyClaimsLiveOwnersHold() {
    Workflow<String, String> wf =
        Workflow.define("resumed", String.class, String.class, (ctx, in) -> "resumed " + in);
    // More running claims of a live owner than one claim looks at, all before the dead owner's
    // execution in id order.
    WorkflowSession alive = store().open();
    try {
      alive.transact(
          tx -> {
            for (int i = 0; i < 100; i++) {
              tx.putExecution(
                  ExecutionRecord.queued("a-" + i, "elsewhere", 1, "\"x\"", tx.now())
                      .claimedBy(alive.ownerId(), tx.now()));
            }
            return null;
          });
      WorkflowSession crashed = store().open();
      crashed.transact(
          tx -> {
            tx.putExecution(
                ExecutionRecord.queued("z-dead", "resumed", 1, "\"x\"", tx.now())
                    .claimedBy(crashed.ownerId(), tx.now()));
            return null;
          });
      crashed.close();

      WorkflowRuntime rt = runtime(wf);
      assertThat(result(rt.execution("z-dead", String.class).orElseThrow())).isEqualTo("resumed x");
      assertThat(watch().status("a-0"))
          .as("a live owner's claim stays")
          .isEqualTo(ExecutionStatus.RUNNING);
    } finally {
      alive.close();
    }
  }

  @Test
  void closingLetsARunningStepFinishAndTheNextRuntimeGoesOn() throws Exception {
    SlowStepWorkflow slow = new SlowStepWorkflow("interrupted", "+next");
    CountDownLatch entered = slow.entered;
    CountDownLatch release = slow.release;
    AtomicInteger slowRuns = slow.slowRuns;
    AtomicInteger nextRuns = slow.nextRuns;
    Workflow<String, String> wf = slow.workflow;
    WorkflowRuntime first = runtime(wf);
    first.submit(wf, "rs-4", "x");
    await(entered);
    Thread closer = new Thread(first::close);
    closer.start();
    release.countDown();
    closer.join(SAFETY.toMillis());
    assertThat(closer.isAlive()).isFalse();
    // Whether the worker saw the close before the next step or not, nothing is lost or redone:
    // close waited for the running body and its commit.
    assertThat(watch().steps("rs-4")).extracting(s -> s.key()).startsWith("slow");
    assertThat(watch().status("rs-4")).isIn(ExecutionStatus.QUEUED, ExecutionStatus.COMPLETED);

    WorkflowRuntime second = runtime(wf);
    assertThat(result(second.execution("rs-4", String.class).orElseThrow()))
        .isEqualTo("slow+next1");
    assertThat(slowRuns).as("the committed step did not run again").hasValue(1);
    assertThat(nextRuns).hasValue(1);
  }

  @Test
  void purgeDeletesFinishedExecutionsOlderThanAsked() {
    WorkflowRuntime rt = runtime(twoSteps);
    Execution<String> done = rt.submit(twoSteps, "rs-5", "x");
    awaitStatus(done, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));
    result(done);
    Execution<String> waiting = rt.submit(twoSteps, "rs-6", "x");
    awaitStatus(waiting, ExecutionStatus.WAITING);
    clock.advance(Duration.ofMinutes(30));

    assertThat(rt.purge(Duration.ofHours(1))).isZero();
    assertThat(rt.purge(Duration.ofMinutes(29))).isEqualTo(1);
    assertThat(rt.execution("rs-5", String.class)).isEmpty();
    assertThat(rt.execution("rs-6", String.class)).as("unfinished executions stay").isPresent();
    assertThat(watch().steps("rs-5")).isEmpty();
  }
}
