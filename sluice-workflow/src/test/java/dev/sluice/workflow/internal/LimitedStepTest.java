/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterOptions;
import dev.sluice.ScheduleOptions;
import dev.sluice.memory.MemoryStore;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowFailedException;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Steps inside a limiter pool obey its shared quota. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LimitedStepTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(SAFETY.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
  }

  @Test
  void aSecondStepWaitsInThePoolWhileTheFirstHoldsItsOnlySlot() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch queued = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    AtomicInteger active = new AtomicInteger();
    AtomicInteger maxActive = new AtomicInteger();
    LimiterOptions options =
        LimiterOptions.builder()
            .listener(
                e -> {
                  if (e.kind() == LimiterEvent.Kind.QUEUED) {
                    queued.countDown();
                  }
                })
            .build();
    try (Limiter limiter =
            Limiter.open(
                MemoryStore.named("pool-" + UUID.randomUUID()),
                LimiterConfig.builder().maxConcurrent(1).build(),
                options);
        WorkflowRuntime rt =
            WorkflowRuntime.builder()
                .store(MemoryWorkflowStore.named("limited-" + UUID.randomUUID()))
                .register(
                    Workflow.define(
                        "limited",
                        String.class,
                        String.class,
                        (ctx, in) ->
                            ctx.step(
                                "call",
                                limiter,
                                ScheduleOptions.defaults(),
                                String.class,
                                step -> {
                                  int now = active.incrementAndGet();
                                  maxActive.accumulateAndGet(now, Math::max);
                                  if (started.incrementAndGet() == 1) {
                                    entered.countDown();
                                    await(release);
                                  }
                                  active.decrementAndGet();
                                  return step.idempotencyKey();
                                })))
                .workers(2)
                .build()) {
      rt.start();
      Workflow<String, String> wf = limitedDefinition();
      Execution<String> first = rt.submit(wf, "l-1", "x");
      await(entered);
      Execution<String> second = rt.submit(wf, "l-2", "x");
      await(queued);
      assertThat(started).as("the second body waits for the pool").hasValue(1);
      release.countDown();
      assertThat(first.result(SAFETY)).isEqualTo("l-1/call");
      assertThat(second.result(SAFETY)).isEqualTo("l-2/call");
      assertThat(maxActive).hasValue(1);
    }
  }

  /** A definition equal in name, version and types to the registered one, for submitting. */
  private static Workflow<String, String> limitedDefinition() {
    return Workflow.define("limited", String.class, String.class, (ctx, in) -> in);
  }

  @Test
  void aQueueTimeoutInThePoolFailsTheStep() {
    try (Limiter limiter =
            Limiter.open(
                MemoryStore.named("pool-" + UUID.randomUUID()),
                LimiterConfig.builder().reservoir(0).build());
        WorkflowRuntime rt =
            WorkflowRuntime.builder()
                .store(MemoryWorkflowStore.named("limited-" + UUID.randomUUID()))
                .register(
                    Workflow.define(
                        "starved",
                        String.class,
                        String.class,
                        (ctx, in) ->
                            ctx.step(
                                "call",
                                limiter,
                                ScheduleOptions.builder()
                                    .queueTimeout(Duration.ofMillis(1))
                                    .build(),
                                String.class,
                                () -> "never")))
                .build()) {
      rt.start();
      Execution<String> run =
          rt.submit(Workflow.define("starved", String.class, String.class, (c, i) -> i), "s", "x");
      assertThatThrownBy(() -> run.result(SAFETY))
          .isInstanceOf(WorkflowFailedException.class)
          .hasMessageContaining("QueueTimeoutException");
    }
  }
}
