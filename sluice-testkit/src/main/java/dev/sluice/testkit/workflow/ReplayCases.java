/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.TypeRef;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Replay returns recorded results; each step body runs once. */
public abstract class ReplayCases extends WorkflowCase {
  protected ReplayCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @Test
  void completedStepsRunOnceAndReplayReturnsTheirRecordedResults() {
    AtomicInteger aRuns = new AtomicInteger();
    AtomicInteger bRuns = new AtomicInteger();
    List<Integer> seenA = new CopyOnWriteArrayList<>();
    List<Instant> seenNow = new CopyOnWriteArrayList<>();
    List<UUID> seenUuid = new CopyOnWriteArrayList<>();
    Workflow<String, String> wf =
        Workflow.define(
            "replay",
            String.class,
            String.class,
            (ctx, in) -> {
              int a = ctx.step("a", Integer.class, () -> 10 * aRuns.incrementAndGet());
              seenA.add(a);
              seenNow.add(ctx.now());
              seenUuid.add(ctx.randomUuid());
              ctx.sleep("pause", Duration.ofHours(1));
              String b = ctx.step("b", String.class, () -> in + bRuns.incrementAndGet());
              return a + "/" + b;
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<String> run = rt.submit(wf, "r-1", "b");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofHours(1));

    assertThat(result(run)).isEqualTo("10/b1");
    assertThat(aRuns).hasValue(1);
    assertThat(bRuns).hasValue(1);
    assertThat(seenA).as("the replay got the recorded result").containsExactly(10, 10);
    assertThat(seenNow).hasSize(2).allMatch(t -> t.equals(seenNow.get(0)));
    assertThat(seenUuid).hasSize(2).allMatch(u -> u.equals(seenUuid.get(0)));
    assertThat(run.status()).isEqualTo(ExecutionStatus.COMPLETED);
  }

  @Test
  void aStepBodySeesAStableIdempotencyKeyAndItsAttempt() {
    Workflow<String, String> wf =
        Workflow.define(
            "keys",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "charge", String.class, step -> step.idempotencyKey() + "#" + step.attempt()));
    WorkflowRuntime rt = runtime(wf);
    assertThat(result(rt.submit(wf, "order-42", "x"))).isEqualTo("order-42/charge#1");
  }

  @Test
  void genericAndNullResultsReplayWithTheirTypes() {
    AtomicInteger runs = new AtomicInteger();
    List<Object> seen = new CopyOnWriteArrayList<>();
    Workflow<String, Integer> wf =
        Workflow.define(
            "generic",
            String.class,
            Integer.class,
            (ctx, in) -> {
              List<String> parts =
                  ctx.step(
                      "split",
                      new TypeRef<List<String>>() {},
                      () -> {
                        runs.incrementAndGet();
                        return List.of(in.split(","));
                      });
              String none = ctx.step("none", String.class, () -> null);
              seen.add(parts);
              seen.add(String.valueOf(none));
              ctx.sleep("pause", Duration.ofMinutes(1));
              return parts.size();
            });
    WorkflowRuntime rt = runtime(wf);
    Execution<Integer> run = rt.submit(wf, "g-1", "a,b,c");
    awaitStatus(run, ExecutionStatus.WAITING);
    clock.advance(Duration.ofMinutes(1));
    assertThat(result(run)).isEqualTo(3);
    assertThat(runs).hasValue(1);
    assertThat(seen)
        .containsExactly(List.of("a", "b", "c"), "null", List.of("a", "b", "c"), "null");
  }

  private static int counted(AtomicInteger counter, int value) {
    counter.incrementAndGet();
    return value;
  }

  @Test
  void manyExecutionsOnSeveralWorkersEachRunEveryStepOnce() {
    AtomicInteger steps = new AtomicInteger();
    Workflow<Integer, Integer> wf =
        Workflow.define(
            "many",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int a = ctx.step("a", Integer.class, () -> counted(steps, n));
              int b = ctx.step("b", Integer.class, () -> counted(steps, a * 2));
              return ctx.step("c", Integer.class, () -> counted(steps, b + 1));
            });
    WorkflowRuntime rt = runtime(3, wf);
    List<Execution<Integer>> runs = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      runs.add(rt.submit(wf, "m-" + i, i));
    }
    for (int i = 0; i < 50; i++) {
      assertThat(result(runs.get(i))).isEqualTo(i * 2 + 1);
    }
    assertThat(steps).hasValue(150);
  }
}
