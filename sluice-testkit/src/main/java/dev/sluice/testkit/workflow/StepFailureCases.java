/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.RetryPolicy;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.StepOptions;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Step failures are recorded and replayed; retries wait durably with backoff. */
public abstract class StepFailureCases extends WorkflowCase {
  protected StepFailureCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  private static String decline() {
    throw new IllegalStateException("card declined");
  }

  @Test
  void aFailedStepReplaysAsStepFailedExceptionWithItsClassMessageAndStack() {
    AtomicInteger runs = new AtomicInteger();
    List<StepFailedException> caught = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "declined",
            String.class,
            String.class,
            (ctx, in) -> {
              String outcome;
              try {
                outcome =
                    ctx.step(
                        "charge",
                        String.class,
                        () -> {
                          runs.incrementAndGet();
                          return decline();
                        });
              } catch (StepFailedException e) {
                caught.add(e);
                outcome = e.originalClassName() + " | " + e.originalMessage();
              }
              ctx.sleep("pause", Duration.ofMinutes(1));
              return outcome;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "f-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofMinutes(1));

    assertThat(result(run)).isEqualTo("java.lang.IllegalStateException | card declined");
    assertThat(runs).as("a recorded failure is not run again").hasValue(1);
    assertThat(caught).hasSize(2);
    for (StepFailedException e : caught) {
      assertThat(e.stepKey()).isEqualTo("charge");
      assertThat(e.getMessage()).isEqualTo("java.lang.IllegalStateException: card declined");
      assertThat(e.getStackTrace()[0].getMethodName()).isEqualTo("decline");
      assertThat(e.getStackTrace()[0].getClassName()).isEqualTo(StepFailureCases.class.getName());
    }
    assertThat(caught.get(1).getStackTrace()).isEqualTo(caught.get(0).getStackTrace());
  }

  @Test
  void anUncaughtStepFailureFailsTheExecution() {
    Workflow<String, String> wf =
        Workflow.define(
            "uncaught",
            String.class,
            String.class,
            (ctx, in) -> ctx.step("charge", String.class, StepFailureCases::decline));
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "f-2", "x");
    assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("f-2")
        .hasMessageContaining("java.lang.IllegalStateException: card declined")
        .cause()
        .isInstanceOfSatisfying(
            StepFailedException.class,
            e -> assertThat(e.originalClassName()).isEqualTo("java.lang.IllegalStateException"));
    assertThat(run.status()).isEqualTo(ExecutionStatus.FAILED);
  }

  @Test
  void retriesWaitDurablyWithBackoffAndKeepTheIdempotencyKey() {
    List<Integer> attempts = new CopyOnWriteArrayList<>();
    List<String> keys = new CopyOnWriteArrayList<>();
    StepOptions retry =
        StepOptions.retry(
            RetryPolicy.builder()
                .maxAttempts(3)
                .delays(Duration.ofSeconds(1), Duration.ofSeconds(10))
                .factor(2)
                .jitter(0)
                .build());
    Workflow<String, String> wf =
        Workflow.define(
            "flaky",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "call",
                    retry,
                    String.class,
                    step -> {
                      attempts.add(step.attempt());
                      keys.add(step.idempotencyKey());
                      if (step.attempt() < 3) {
                        throw new IOException("flaky " + step.attempt());
                      }
                      return "ok";
                    }));
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "retry-1", "x");
    watch()
        .awaitUntil(
            "the first attempt failed",
            () -> attempts.size() == 1 && watch().status("retry-1") == ExecutionStatus.WAITING);

    clock.advance(Duration.ofMillis(999));
    probe();
    assertThat(run.status()).isEqualTo(ExecutionStatus.WAITING);
    assertThat(attempts).as("no retry before its backoff").containsExactly(1);

    clock.advance(Duration.ofMillis(1));
    watch()
        .awaitUntil(
            "the second attempt failed",
            () -> attempts.size() == 2 && watch().status("retry-1") == ExecutionStatus.WAITING);
    clock.advance(Duration.ofMillis(1999));
    probe();
    assertThat(attempts).as("the backoff doubled").containsExactly(1, 2);

    clock.advance(Duration.ofMillis(1));
    assertThat(result(run)).isEqualTo("ok");
    assertThat(attempts).containsExactly(1, 2, 3);
    assertThat(keys).containsOnly("retry-1/call");
  }

  @Test
  void theLastAttemptsFailureIsRecorded() {
    AtomicInteger attempts = new AtomicInteger();
    StepOptions retry =
        StepOptions.retry(
            RetryPolicy.builder()
                .maxAttempts(2)
                .delays(Duration.ofSeconds(1), Duration.ofSeconds(1))
                .jitter(0)
                .build());
    Workflow<String, String> wf =
        Workflow.define(
            "exhausted",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "call",
                    retry,
                    String.class,
                    () -> {
                      throw new IOException("down " + attempts.incrementAndGet());
                    }));
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "retry-2", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> result(run))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("java.io.IOException: down 2");
    assertThat(attempts).hasValue(2);
  }

  @Test
  void aFailureThePolicyDoesNotRetryFailsAtOnce() {
    AtomicInteger attempts = new AtomicInteger();
    StepOptions retry =
        StepOptions.retry(
            RetryPolicy.builder().maxAttempts(5).retryOn(t -> t instanceof IOException).build());
    Workflow<String, String> wf =
        Workflow.define(
            "fatal",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "call",
                    retry,
                    String.class,
                    () -> {
                      attempts.incrementAndGet();
                      throw new IllegalArgumentException("bad request");
                    }));
    WorkflowRuntime rt = runtime(wf);
    assertThatThrownBy(() -> result(rt.submit(wf, "retry-3", "x")))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("bad request");
    assertThat(attempts).hasValue(1);
  }
}
