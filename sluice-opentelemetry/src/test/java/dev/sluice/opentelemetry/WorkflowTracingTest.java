/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import static dev.sluice.opentelemetry.Spans.assertChild;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.memory.MemoryWorkflowStore;
import dev.sluice.workflow.spi.WorkflowStore;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step spans {@link WorkflowTracing} makes for real runtimes: in one runtime on the memory
 * store, and across a recovery on a real SQLite store, where a second runtime with an SDK of its
 * own (as another process would have) resumes an execution the first one left mid-way, and its
 * spans join the trace that submitted it.
 */
class WorkflowTracingTest {
  private static final Duration SAFETY = Duration.ofSeconds(30);
  private static final AttributeKey<String> STEP = AttributeKey.stringKey("sluice.step");
  private static final AttributeKey<Boolean> REPLAYED =
      AttributeKey.booleanKey("sluice.step.replayed");

  @TempDir Path dir;

  /** The span current in each step body, by step key. */
  private final Map<String, String> currentInBody = new ConcurrentHashMap<>();

  private String body(String key) {
    currentInBody.put(key, Span.current().getSpanContext().getSpanId());
    return key + " done";
  }

  private WorkflowRuntime runtime(WorkflowStore store, Workflow<?, ?> wf, Spans spans) {
    WorkflowRuntime r =
        WorkflowRuntime.builder()
            .store(store)
            .register(wf)
            .workers(1)
            .instrumentation(WorkflowTracing.of(spans.otel()))
            .build();
    r.start();
    return r;
  }

  /** Submits inside a span named {@code caller} of {@code spans}' SDK. */
  private static Execution<String> submit(
      WorkflowRuntime runtime, Workflow<String, String> wf, String id, Spans spans) {
    Tracer app = spans.otel().getTracer("app");
    Span caller = app.spanBuilder("caller").startSpan();
    try (Scope s = caller.makeCurrent()) {
      return runtime.submit(wf, id, "input");
    } finally {
      caller.end();
    }
  }

  private static SpanData step(List<SpanData> steps, String key, boolean replayed) {
    List<SpanData> found =
        steps.stream()
            .filter(
                s ->
                    key.equals(s.getAttributes().get(STEP))
                        && replayed == s.getAttributes().get(REPLAYED))
            .toList();
    assertThat(found).as("step %s replayed=%s among %s", key, replayed, steps).hasSize(1);
    return found.get(0);
  }

  @Test
  void stepsAreChildrenOfTheSubmitAndReplaysAreMarked() {
    Workflow<String, String> wf =
        Workflow.define(
            "traced",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.step("a", String.class, () -> body("a"));
              ctx.sleep("pause", Duration.ofMillis(1));
              return a + ", " + ctx.step("b", String.class, () -> body("b"));
            });
    try (Spans spans = new Spans();
        WorkflowRuntime runtime =
            runtime(MemoryWorkflowStore.named("traced-" + UUID.randomUUID()), wf, spans)) {
      Execution<String> run = submit(runtime, wf, "order-1", spans);
      assertThat(run.result(SAFETY)).isEqualTo("a done, b done");

      SpanData submit = spans.one("sluice.workflow.submit");
      assertChild(submit, spans.one("caller"));
      assertThat(submit.getAttributes().get(AttributeKey.stringKey("sluice.execution_id")))
          .isEqualTo("order-1");
      List<SpanData> steps = spans.named("sluice.workflow.step");
      SpanData a = step(steps, "a", false);
      SpanData b = step(steps, "b", false);
      // The sleep suspended the execution; its next run replayed "a".
      SpanData aReplayed = step(steps, "a", true);
      for (SpanData s : List.of(a, b, aReplayed)) {
        assertChild(s, submit);
        assertThat(s.getAttributes().get(AttributeKey.stringKey("sluice.workflow")))
            .isEqualTo("traced");
        assertThat(s.getAttributes().get(AttributeKey.stringKey("sluice.outcome")))
            .isEqualTo("completed");
      }
      assertThat(a.getAttributes().get(AttributeKey.longKey("sluice.attempt"))).isEqualTo(1);
      assertThat(aReplayed.getAttributes().get(AttributeKey.longKey("sluice.attempt")))
          .isEqualTo(0);
      assertThat(currentInBody).containsEntry("a", a.getSpanId()).containsEntry("b", b.getSpanId());
    }
  }

  @Test
  void aResumedExecutionJoinsTheSubmittingTraceOnAnotherRuntime() throws Exception {
    CountDownLatch inB = new CountDownLatch(1);
    CountDownLatch releaseB = new CountDownLatch(1);
    Workflow<String, String> wf =
        Workflow.define(
            "recovered",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.step("a", String.class, () -> body("a"));
              ctx.step(
                  "b",
                  String.class,
                  () -> {
                    inB.countDown();
                    // The first runtime is told to close while this body runs.
                    if (!releaseB.await(SAFETY.toSeconds(), TimeUnit.SECONDS)) {
                      throw new IllegalStateException("never released");
                    }
                    return body("b");
                  });
              return ctx.step("c", String.class, () -> body("c"));
            });
    Path store = dir.resolve("workflows");
    String traceId;
    String submitSpanId;
    try (Spans first = new Spans()) {
      WorkflowRuntime one = runtime(SqliteWorkflowStore.directory(store), wf, first);
      submit(one, wf, "order-2", first);
      assertThat(inB.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // close() lets the running body return, records it, and leaves "c" to the next runtime.
      Thread closer = new Thread(one::close, "closer");
      closer.start();
      releaseB.countDown();
      closer.join(SAFETY.toMillis());
      assertThat(closer.isAlive()).isFalse();

      SpanData submit = first.one("sluice.workflow.submit");
      traceId = submit.getTraceId();
      submitSpanId = submit.getSpanId();
      List<SpanData> steps = first.named("sluice.workflow.step");
      assertThat(steps).extracting(s -> s.getAttributes().get(STEP)).containsExactly("a", "b");
      steps.forEach(s -> assertChild(s, submit));
    }

    try (Spans second = new Spans();
        WorkflowRuntime two = runtime(SqliteWorkflowStore.directory(store), wf, second)) {
      Execution<String> resumed = two.execution("order-2", String.class).orElseThrow();
      assertThat(resumed.result(SAFETY)).isEqualTo("c done");

      // Nothing of the first SDK is in this one: only the store carried the trace.
      assertThat(second.named("sluice.workflow.submit")).isEmpty();
      List<SpanData> steps = second.named("sluice.workflow.step");
      SpanData c = step(steps, "c", false);
      step(steps, "a", true);
      step(steps, "b", true);
      for (SpanData s : steps) {
        assertThat(s.getTraceId()).isEqualTo(traceId);
        assertThat(s.getParentSpanId()).isEqualTo(submitSpanId);
      }
      assertThat(currentInBody).containsEntry("c", c.getSpanId());
    }
  }
}
