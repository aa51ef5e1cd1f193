/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Admission;
import dev.sluice.AttemptClassifier;
import dev.sluice.ExecuteOptions;
import dev.sluice.ExecutionContext;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.RetryPolicy;
import dev.sluice.ScheduleOptions;
import dev.sluice.memory.MemoryStore;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.StepFailedException;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Steps inside a limiter pool: the body sees its admission, and a managed execution is one recorded
 * step whose retries happen inside it.
 */
public abstract class LimitedStepCases extends WorkflowCase {
  private static final ExecuteOptions RETRIED =
      ExecuteOptions.builder()
          .replaySafe(true)
          .classifier(AttemptClassifier.exceptionsAreServiceFailures())
          .retry(
              RetryPolicy.builder()
                  .maxAttempts(3)
                  .delays(Duration.ofMillis(1), Duration.ofMillis(5))
                  .build())
          .build();

  private final Limiter limiter =
      Limiter.open(
          MemoryStore.named("limited-step-" + UUID.randomUUID()),
          LimiterConfig.builder().maxConcurrent(1).build());

  protected LimitedStepCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @AfterEach
  void closeLimiter() {
    limiter.close();
  }

  @Test
  void aStepInAPoolSeesItsAdmissionAndAPlainStepHasNone() {
    List<Admission> seen = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "admitted",
            String.class,
            String.class,
            (ctx, in) -> {
              boolean plain =
                  ctx.step(
                      "plain",
                      Boolean.class,
                      step -> step.admission().isPresent() || step.execution().isPresent());
              long token =
                  ctx.step(
                      "pooled",
                      limiter,
                      ScheduleOptions.defaults(),
                      Long.class,
                      step -> {
                        Admission a = step.admission().orElseThrow();
                        if (step.execution().isPresent()) {
                          throw new IllegalStateException("a scheduled step is no execution");
                        }
                        seen.add(a);
                        return a.fencingToken();
                      });
              return plain + "/" + token;
            });
    WorkflowRuntime rt = runtime(wf);
    String out = result(rt.submit(wf, "adm-1", "x"));
    assertThat(seen).hasSize(1);
    assertThat(out).isEqualTo("false/" + seen.get(0).fencingToken());
  }

  @Test
  void aManagedStepRetriesInsideOneStepAndAReplayDoesNotRunIt() {
    AtomicInteger runs = new AtomicInteger();
    List<Long> tokens = new CopyOnWriteArrayList<>();
    List<String> keys = new CopyOnWriteArrayList<>();
    List<ExecutionContext> attempts = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "managed",
            String.class,
            String.class,
            (ctx, in) -> {
              String r =
                  ctx.step(
                      "charge",
                      limiter,
                      RETRIED,
                      String.class,
                      step -> {
                        tokens.add(step.admission().orElseThrow().fencingToken());
                        keys.add(step.idempotencyKey());
                        attempts.add(step.execution().orElseThrow());
                        if (runs.incrementAndGet() < 3) {
                          throw new IOException("the service is down, attempt " + runs.get());
                        }
                        return "charged " + in;
                      });
              ctx.sleep("settle", Duration.ofHours(1));
              return r;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "m-1", "42");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));

    assertThat(result(run)).isEqualTo("charged 42");
    assertThat(runs).as("three attempts, and none on the replay").hasValue(3);
    assertThat(tokens).as("each attempt had its own admission").doesNotHaveDuplicates();
    assertThat(tokens).isSorted();
    assertThat(keys).containsOnly("m-1/charge");
    // The body sees the managed execution's attempts: one operation, counted 1, 2, 3, none
    // cancelled; the step itself ran once.
    assertThat(attempts).extracting(ExecutionContext::attempt).containsExactly(1, 2, 3);
    assertThat(attempts)
        .extracting(ExecutionContext::operationId)
        .hasSize(3)
        .containsOnly(attempts.get(0).operationId());
    assertThat(attempts).noneMatch(ExecutionContext::cancelled);
  }

  @Test
  void aManagedStepThatFailsEveryAttemptIsRecordedOnceAsFailed() {
    AtomicInteger runs = new AtomicInteger();
    List<String> seen = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "managed-failing",
            String.class,
            String.class,
            (ctx, in) -> {
              String r;
              try {
                r =
                    ctx.step(
                        "call",
                        limiter,
                        RETRIED,
                        String.class,
                        () -> {
                          throw new IOException("down, attempt " + runs.incrementAndGet());
                        });
              } catch (StepFailedException e) {
                r = "failed: " + e.getMessage();
              }
              seen.add(r);
              ctx.sleep("settle", Duration.ofHours(1));
              return r;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "f-1", "x");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));

    String out = result(run);
    assertThat(out).startsWith("failed: ").contains("down, attempt 3");
    assertThat(runs).as("the execution's three attempts, once").hasValue(3);
    assertThat(seen).as("the replay got the recorded failure").containsExactly(out, out);
  }
}
