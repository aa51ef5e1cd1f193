/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Several runtimes with several workers on one store: one claim per execution at a time. */
public abstract class ConcurrencyCases extends WorkflowCase {
  protected ConcurrencyCases(WorkflowStoreFactory stores) {
    super(stores);
  }

  @Test
  void twoRuntimesNeverRunOneExecutionAtOnceAndRunEveryStepOnce() {
    int executions = 60;
    AtomicInteger bodies = new AtomicInteger();
    Set<String> inBody = ConcurrentHashMap.newKeySet();
    List<String> overlaps = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<String, AtomicInteger> perStep = new ConcurrentHashMap<>();
    Workflow<Integer, Integer> wf =
        Workflow.define(
            "shared",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int total = 0;
              for (int i = 0; i < 3; i++) {
                String key = "step-" + i;
                total +=
                    ctx.step(
                        key,
                        Integer.class,
                        step -> {
                          if (!inBody.add(step.executionId())) {
                            overlaps.add(step.idempotencyKey());
                          }
                          try {
                            bodies.incrementAndGet();
                            perStep
                                .computeIfAbsent(step.idempotencyKey(), k -> new AtomicInteger())
                                .incrementAndGet();
                            return n;
                          } finally {
                            inBody.remove(step.executionId());
                          }
                        });
              }
              return total;
            });
    WorkflowRuntime a = runtime(2, wf);
    WorkflowRuntime b = runtime(2, wf);
    List<Execution<Integer>> runs = new ArrayList<>();
    for (int i = 0; i < executions; i++) {
      runs.add((i % 2 == 0 ? a : b).submit(wf, "x-" + i, i));
    }
    for (int i = 0; i < executions; i++) {
      assertThat(result(runs.get(i))).isEqualTo(3 * i);
    }
    assertThat(overlaps).as("bodies of one execution never overlap").isEmpty();
    assertThat(bodies).hasValue(3 * executions);
    assertThat(perStep).hasSize(3 * executions).allSatisfy((k, v) -> assertThat(v).hasValue(1));
  }

  @Test
  void aStoreWideLimitHoldsAcrossRuntimes() throws Exception {
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Workflow<Integer, Integer> wf =
        Workflow.define(
            "limited",
            Integer.class,
            Integer.class,
            (ctx, n) ->
                ctx.step(
                    "work",
                    Integer.class,
                    () -> {
                      most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                      entered.countDown();
                      await(release);
                      inside.decrementAndGet();
                      return n;
                    }));
    WorkflowRuntime a = build(b -> b.globalMaxConcurrent("limited", 1), 2, wf);
    WorkflowRuntime b = build(r -> r.globalMaxConcurrent("limited", 1), 2, wf);
    a.start();
    b.start();
    List<Execution<Integer>> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      runs.add((i % 2 == 0 ? a : b).submit(wf, "g-" + i, i));
    }
    await(entered);
    // Each runtime has a free worker; a probe submitted now is claimed after it passed over the
    // limited executions queued before it.
    assertThat(a.submit(PROBE, "probe-a", "a").result(SAFETY)).isEqualTo("a");
    assertThat(b.submit(PROBE, "probe-b", "b").result(SAFETY)).isEqualTo("b");
    long queued =
        runs.stream().filter(r -> r.status() == dev.sluice.workflow.ExecutionStatus.QUEUED).count();
    assertThat(queued).as("the others wait for the one running").isEqualTo(3);

    release.countDown();
    for (int i = 0; i < 4; i++) {
      assertThat(result(runs.get(i))).isEqualTo(i);
    }
    assertThat(most).as("never two at once, in either runtime").hasValue(1);
  }
}
