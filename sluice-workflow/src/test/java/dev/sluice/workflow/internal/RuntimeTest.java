/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runtime behaviour that does not depend on the store: limits, settings, worker threads. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RuntimeTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  private final MemoryWorkflowStore store = MemoryWorkflowStore.named("rt-" + UUID.randomUUID());

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(SAFETY.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
  }

  @Test
  void aWorkflowLimitHoldsBackItsExecutionsButNotOthers() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger slowRuns = new AtomicInteger();
    Workflow<String, String> slow =
        Workflow.define(
            "slow",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.step(
                    "wait",
                    String.class,
                    () -> {
                      slowRuns.incrementAndGet();
                      entered.countDown();
                      await(release);
                      return in;
                    }));
    Workflow<String, String> fast =
        Workflow.define("fast", String.class, String.class, (c, i) -> i);
    try (WorkflowRuntime rt =
        WorkflowRuntime.builder()
            .store(store)
            .register(slow)
            .register(fast)
            .workers(3)
            .maxConcurrent("slow", 1)
            .build()) {
      rt.start();
      Execution<String> first = rt.submit(slow, "s1", "a");
      await(entered);
      Execution<String> second = rt.submit(slow, "s2", "b");
      // A free worker passes the held-back execution and takes the one behind it.
      assertThat(rt.submit(fast, "f1", "c").result(SAFETY)).isEqualTo("c");
      assertThat(second.status()).isEqualTo(ExecutionStatus.QUEUED);
      assertThat(slowRuns).hasValue(1);
      release.countDown();
      assertThat(first.result(SAFETY)).isEqualTo("a");
      assertThat(second.result(SAFETY)).isEqualTo("b");
    }
  }

  @Test
  void workersAreNamedAfterTheStore() {
    AtomicReference<String> thread = new AtomicReference<>();
    Workflow<String, String> wf =
        Workflow.define(
            "where",
            String.class,
            String.class,
            (ctx, in) -> {
              thread.set(Thread.currentThread().getName());
              return in;
            });
    try (WorkflowRuntime rt = WorkflowRuntime.builder().store(store).register(wf).build()) {
      rt.start();
      rt.submit(wf, "w1", "x").result(SAFETY);
    }
    assertThat(thread.get()).startsWith("sluice-workflow-" + store.name() + "-");
  }

  @Test
  void settingsAreCheckedNamingTheField() {
    Workflow<String, String> wf = Workflow.define("w", String.class, String.class, (c, i) -> i);
    assertThatThrownBy(() -> WorkflowRuntime.builder().store(store).workers(0).settings())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workers");
    assertThatThrownBy(
            () -> WorkflowRuntime.builder().store(store).register(wf).register(wf).settings())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'w' version 1 is registered twice");
    assertThatThrownBy(
            () -> WorkflowRuntime.builder().store(store).maxConcurrent("nope", 1).settings())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nope'");
    assertThatThrownBy(
            () ->
                WorkflowRuntime.builder()
                    .store(store)
                    .register(wf)
                    .globalMaxConcurrent("w", 0)
                    .settings())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("globalMaxConcurrent of workflow 'w' must be at least 1")
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> WorkflowRuntime.builder().settings())
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("store");
  }

  @Test
  void aClosedRuntimeRefusesWork() {
    Workflow<String, String> wf = Workflow.define("w", String.class, String.class, (c, i) -> i);
    WorkflowRuntime rt = WorkflowRuntime.builder().store(store).register(wf).build();
    rt.close();
    assertThatThrownBy(() -> rt.submit(wf, "x", "x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(rt::start).isInstanceOf(IllegalStateException.class);
    rt.close();
  }

  @Test
  void resultWithZeroTimeoutChecksOnce() {
    Workflow<String, String> wf = Workflow.define("w", String.class, String.class, (c, i) -> i);
    try (WorkflowRuntime rt = WorkflowRuntime.builder().store(store).register(wf).build()) {
      Execution<String> e = rt.submit(wf, "z", "x");
      assertThatThrownBy(() -> e.result(Duration.ZERO))
          .isInstanceOf(dev.sluice.workflow.ResultTimeoutException.class)
          .hasMessageContaining("'z'")
          .hasMessageContaining("queued");
    }
  }
}
