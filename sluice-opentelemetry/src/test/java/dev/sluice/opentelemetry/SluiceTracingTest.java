/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import static dev.sluice.opentelemetry.Spans.assertChild;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.AttemptOutcome;
import dev.sluice.ExecuteOptions;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.RetryPolicy;
import dev.sluice.ScheduleOptions;
import dev.sluice.memory.MemoryStore;
import dev.sluice.spi.PoolStore;
import dev.sluice.sqlite.SqliteStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The span tree {@link SluiceTracing} makes for real limiters, on a memory pool and on a real
 * SQLite pool, exported by the SDK's in-memory exporter: for {@code schedule}, {@code execute} and
 * the blocking {@code call(task, options)}.
 */
class SluiceTracingTest {
  private static final long SAFETY_SECONDS = 20;

  @TempDir static Path dir;

  private final Spans spans = new Spans();
  private final Tracer app = spans.otel().getTracer("app");

  @AfterEach
  void close() {
    spans.close();
  }

  static Stream<String> stores() {
    return Stream.of("memory", "sqlite");
  }

  private Limiter open(String kind, LimiterConfig config) {
    PoolStore store =
        kind.equals("memory")
            ? MemoryStore.named("tracing-" + UUID.randomUUID())
            : SqliteStore.directory(dir.resolve("pool-" + UUID.randomUUID()));
    return Limiter.open(
        store,
        config,
        LimiterOptions.builder().instrumentation(SluiceTracing.of(spans.otel())).build());
  }

  @ParameterizedTest
  @MethodSource("stores")
  void scheduleSpanIsTheCallersChildAndTheCallbacksParent(String kind) throws Exception {
    try (Limiter limiter = open(kind, LimiterConfig.builder().maxConcurrent(2).build())) {
      Span caller = app.spanBuilder("caller").startSpan();
      CompletableFuture<String> f;
      try (Scope s = caller.makeCurrent()) {
        f =
            limiter.schedule(
                admission -> {
                  Span inside = app.spanBuilder("inside").startSpan();
                  inside.end();
                  return Thread.currentThread().getName();
                },
                ScheduleOptions.builder().weight(2).build());
      } finally {
        caller.end();
      }
      String thread = f.get(SAFETY_SECONDS, TimeUnit.SECONDS);
      assertThat(thread).isNotEqualTo(Thread.currentThread().getName());

      SpanData schedule = spans.one("sluice.schedule");
      assertChild(schedule, spans.one("caller"));
      assertChild(spans.one("inside"), schedule);
      assertThat(schedule.getAttributes().get(AttributeKey.stringKey("sluice.pool")))
          .isEqualTo(limiter.pool());
      assertThat(schedule.getAttributes().get(AttributeKey.longKey("sluice.weight"))).isEqualTo(2);
      assertThat(schedule.getAttributes().get(AttributeKey.longKey("sluice.fencing_token")))
          .isPositive();
      assertThat(schedule.getAttributes().get(AttributeKey.stringKey("sluice.outcome")))
          .isEqualTo("completed");
      assertThat(schedule.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aFailingCallbackAndAWithdrawnRequestEndTheirSpans(String kind) throws Exception {
    try (Limiter limiter = open(kind, LimiterConfig.builder().maxConcurrent(1).build())) {
      CompletableFuture<String> failing =
          limiter.schedule(
              () -> {
                throw new IllegalStateException("boom");
              });
      assertThatThrownBy(() -> failing.get(SAFETY_SECONDS, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(IllegalStateException.class);
      SpanData failed = spans.one("sluice.schedule");
      assertThat(failed.getAttributes().get(AttributeKey.stringKey("sluice.outcome")))
          .isEqualTo("failed");
      assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(failed.getEvents()).anyMatch(e -> e.getName().equals("exception"));
      // No caller context: the span starts a trace of its own.
      assertThat(failed.getParentSpanContext().isValid()).isFalse();

      spans.exporter.reset();
      try (Lease held = limiter.acquire(1)) {
        CompletableFuture<String> queued = limiter.schedule(() -> "never");
        assertThat(queued.cancel(false)).isTrue();
        assertThatThrownBy(queued::join).isInstanceOf(CancellationException.class);
        assertThat(held.admission().fencingToken()).isPositive();
      }
      assertThat(
              spans
                  .one("sluice.schedule")
                  .getAttributes()
                  .get(AttributeKey.stringKey("sluice.outcome")))
          .isEqualTo("cancelled");
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void executeSpanHasOneChildPerAttempt(String kind) throws Exception {
    ExecuteOptions options = retryingIoFailures(4);
    try (Limiter limiter = open(kind, LimiterConfig.builder().maxConcurrent(1).build())) {
      Span caller = app.spanBuilder("caller").startSpan();
      CompletableFuture<String> f;
      try (Scope s = caller.makeCurrent()) {
        f =
            limiter.execute(
                ctx -> {
                  app.spanBuilder("try " + ctx.attempt()).startSpan().end();
                  if (ctx.attempt() < 3) {
                    throw new IOException("connection reset");
                  }
                  return ctx.operationId();
                },
                options);
      } finally {
        caller.end();
      }
      String operationId = f.get(SAFETY_SECONDS, TimeUnit.SECONDS);

      SpanData execute = completedExecute(operationId);
      assertAttempts(execute, operationId, 3);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void theBlockingCallMakesTheSameTreeOnTheCallersThread(String kind) throws Exception {
    ExecuteOptions options = retryingIoFailures(3);
    List<String> threads = new CopyOnWriteArrayList<>();
    try (Limiter limiter = open(kind, LimiterConfig.builder().maxConcurrent(1).build())) {
      Span caller = app.spanBuilder("caller").startSpan();
      String operationId;
      try (Scope s = caller.makeCurrent()) {
        operationId =
            limiter.call(
                ctx -> {
                  threads.add(Thread.currentThread().getName());
                  app.spanBuilder("try " + ctx.attempt()).startSpan().end();
                  if (ctx.attempt() < 2) {
                    throw new IOException("connection reset");
                  }
                  return ctx.operationId();
                },
                options);
        // The caller's context is current again once the call returned.
        assertThat(Span.current().getSpanContext()).isEqualTo(caller.getSpanContext());
      } finally {
        caller.end();
      }

      SpanData execute = completedExecute(operationId);
      assertAttempts(execute, operationId, 2);
      assertThat(threads).containsOnly(Thread.currentThread().getName());

      spans.exporter.reset();
      assertThatThrownBy(
              () ->
                  limiter.call(
                      ctx -> {
                        throw new IOException("still down");
                      },
                      options))
          .isInstanceOf(IOException.class);
      SpanData failed = spans.one("sluice.execute");
      assertThat(failed.getAttributes().get(AttributeKey.stringKey("sluice.outcome")))
          .isEqualTo("failed");
      assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(spans.named("sluice.attempt"))
          .hasSize(3)
          .allSatisfy(a -> assertChild(a, failed))
          .allMatch(
              a ->
                  "service_failure"
                      .equals(
                          a.getAttributes().get(AttributeKey.stringKey("sluice.attempt.outcome"))));
    }
  }

  /** Retries up to {@code maxAttempts} while the task throws an {@link IOException}. */
  private static ExecuteOptions retryingIoFailures(int maxAttempts) {
    return ExecuteOptions.builder()
        .replaySafe(true)
        .classifier(
            (result, failure) ->
                failure instanceof IOException
                    ? AttemptOutcome.serviceFailure()
                    : AttemptOutcome.success())
        .retry(
            RetryPolicy.builder()
                .maxAttempts(maxAttempts)
                .delays(Duration.ofMillis(1), Duration.ofMillis(5))
                .build())
        .build();
  }

  /** The one {@code sluice.execute} span: the caller's child, completed, of {@code operationId}. */
  private SpanData completedExecute(String operationId) {
    SpanData execute = spans.one("sluice.execute");
    assertChild(execute, spans.one("caller"));
    assertThat(execute.getAttributes().get(AttributeKey.stringKey("sluice.operation_id")))
        .isEqualTo(operationId);
    assertThat(execute.getAttributes().get(AttributeKey.stringKey("sluice.outcome")))
        .isEqualTo("completed");
    return execute;
  }

  /**
   * Asserts {@code count} attempt spans under {@code execute}, each the parent of its task's {@code
   * try N} span, all but the last judged a service failure.
   */
  private void assertAttempts(SpanData execute, String operationId, int count) {
    List<SpanData> attempts = spans.named("sluice.attempt");
    assertThat(attempts).hasSize(count);
    for (int n = 1; n <= count; n++) {
      SpanData attempt = attempts.get(n - 1);
      assertChild(attempt, execute);
      assertChild(spans.one("try " + n), attempt);
      assertThat(attempt.getAttributes().get(AttributeKey.longKey("sluice.attempt"))).isEqualTo(n);
      assertThat(attempt.getAttributes().get(AttributeKey.stringKey("sluice.operation_id")))
          .isEqualTo(operationId);
      assertThat(attempt.getAttributes().get(AttributeKey.longKey("sluice.fencing_token")))
          .isPositive();
      assertThat(attempt.getAttributes().get(AttributeKey.stringKey("sluice.attempt.outcome")))
          .isEqualTo(n < count ? "service_failure" : "success");
    }
  }

  @Test
  void aHookThatThrowsOnASluiceThreadDoesNotStopTheRequest() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    dev.sluice.Instrumentation faulty =
        new dev.sluice.Instrumentation() {
          @Override
          public dev.sluice.Observation schedule(String pool, ScheduleOptions options) {
            return new dev.sluice.Observation() {
              @Override
              public dev.sluice.Observation.Scope enter() {
                entered.countDown();
                throw new IllegalStateException("faulty enter");
              }

              @Override
              public void end(Throwable failure) {
                throw new IllegalStateException("faulty end");
              }
            };
          }

          @Override
          public dev.sluice.Observation execute(
              String pool, String operationId, ExecuteOptions options) {
            return dev.sluice.Observation.NONE;
          }

          @Override
          public dev.sluice.Observation attempt(dev.sluice.Observation execution, int attempt) {
            return dev.sluice.Observation.NONE;
          }
        };
    try (Limiter limiter =
        Limiter.open(
            MemoryStore.named("faulty-" + UUID.randomUUID()),
            LimiterConfig.builder().maxConcurrent(1).build(),
            LimiterOptions.builder().instrumentation(faulty).build())) {
      assertThat(limiter.schedule(() -> "ran").get(SAFETY_SECONDS, TimeUnit.SECONDS))
          .isEqualTo("ran");
      assertThat(entered.getCount()).isZero();
      // The lease was released: another request is admitted.
      Lease next = limiter.tryAcquire(1).orElseThrow();
      next.close();
    }
  }
}
