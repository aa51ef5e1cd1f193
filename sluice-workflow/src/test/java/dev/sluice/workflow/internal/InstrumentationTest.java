/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.Observation;
import dev.sluice.workflow.ObservedStep;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowInstrumentation;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepRecord;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a {@link WorkflowInstrumentation} is given and what the runtime records for it, on the
 * memory store: the carried text is the execution's first step record, the function never sees it,
 * inspection does not show it, and a hook that fails does not stop the run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InstrumentationTest {
  private static final Duration SAFETY = Duration.ofSeconds(20);

  private final MemoryWorkflowStore store = MemoryWorkflowStore.named("in-" + UUID.randomUUID());
  private final Workflow<String, String> wf =
      Workflow.define(
          "two-steps",
          String.class,
          String.class,
          (ctx, in) -> {
            String a = ctx.step("a", String.class, () -> in + "-a");
            ctx.sleep("pause", Duration.ofMillis(1));
            return ctx.step("b", String.class, () -> a + "-b");
          });

  /** Carries {@code carried} and records every step it is shown; {@code step} may throw. */
  private static final class Recording implements WorkflowInstrumentation {
    final List<ObservedStep> steps = new CopyOnWriteArrayList<>();
    final String carried;
    final boolean faulty;

    Recording(String carried, boolean faulty) {
      this.carried = carried;
      this.faulty = faulty;
    }

    @Override
    public String carry(String workflow, String executionId) {
      return carried;
    }

    @Override
    public Observation step(ObservedStep step) {
      steps.add(step);
      if (faulty) {
        throw new IllegalStateException("faulty hook");
      }
      return Observation.NONE;
    }
  }

  private WorkflowRuntime runtime(WorkflowInstrumentation hook) {
    WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store).register(wf).instrumentation(hook).build();
    rt.start();
    return rt;
  }

  private List<StepRecord> steps(String id) {
    try (var session = store.open()) {
      return session.transact(tx -> tx.steps(id));
    }
  }

  @Test
  void theCarriedTextIsRecordedFirstAndShownWithEveryStep() {
    Recording hook = new Recording("traceparent=00-abc-def-01", false);
    try (WorkflowRuntime rt = runtime(hook)) {
      assertThat(rt.submit(wf, "e1", "x").result(SAFETY)).isEqualTo("x-a-b");
    }
    List<StepRecord> recorded = steps("e1");
    assertThat(recorded.get(0).kind()).isEqualTo(StepKind.CONTEXT);
    assertThat(recorded.get(0).position()).isZero();
    assertThat(recorded).extracting(StepRecord::key).containsExactly("$context", "a", "pause", "b");
    try (WorkflowRuntime reader = WorkflowRuntime.builder().store(store).build()) {
      assertThat(reader.inspector().details("e1").orElseThrow().steps())
          .as("inspection shows the workflow's own steps, not the carried context")
          .extracting(StepRecord::key)
          .containsExactly("a", "pause", "b");
    }
    assertThat(hook.steps)
        .extracting(s -> s.stepKey() + (s.replayed() ? " replayed" : " run " + s.attempt()))
        .containsExactly("a run 1", "a replayed", "b run 1");
    assertThat(hook.steps).allMatch(s -> "traceparent=00-abc-def-01".equals(s.carried()));
    assertThat(hook.steps).allMatch(s -> s.executionId().equals("e1"));
  }

  @Test
  void nothingCarriedRecordsNothingAndAFaultyHookIsIgnored() {
    Recording hook = new Recording(null, true);
    try (WorkflowRuntime rt = runtime(hook)) {
      assertThat(rt.submit(wf, "e2", "y").result(SAFETY)).isEqualTo("y-a-b");
    }
    assertThat(steps("e2")).extracting(StepRecord::key).containsExactly("a", "pause", "b");
    try (WorkflowRuntime reader = WorkflowRuntime.builder().store(store).build()) {
      assertThat(reader.inspector().details("e2").orElseThrow().steps())
          .extracting(StepRecord::key)
          .containsExactly("a", "pause", "b");
    }
    assertThat(hook.steps).hasSize(3).allMatch(s -> s.carried() == null);
  }

  @Test
  void aCarriedTextOverTheLimitIsRefusedBeforeAnythingIsWritten() {
    String tooLong = "x".repeat(WorkflowInstrumentation.MAX_CARRIED_LENGTH + 1);
    try (WorkflowRuntime rt = runtime(new Recording(tooLong, false))) {
      assertThatThrownBy(() -> rt.submit(wf, "e3", "z"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("4097 characters")
          .hasMessageContaining("at most 4096");
      assertThat(rt.execution("e3", String.class)).isEmpty();
    }
  }
}
