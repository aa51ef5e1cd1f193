/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import dev.sluice.ExecuteOptions;
import dev.sluice.Instrumentation;
import dev.sluice.Observation;
import dev.sluice.ScheduleOptions;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Objects;

/**
 * OpenTelemetry spans for one or more limiters, on the OpenTelemetry API: the application brings
 * the SDK (and its exporter) and passes its {@link OpenTelemetry}.
 *
 * <pre>{@code
 * SluiceTracing tracing = SluiceTracing.of(openTelemetry);
 * Limiter limiter = Limiter.open(store, config,
 *     LimiterOptions.builder().instrumentation(tracing).build());
 * }</pre>
 *
 * <table>
 *   <caption>Spans (tracer {@code dev.sluice})</caption>
 *   <tr><th>Name</th><th>Parent</th><th>Covers</th><th>Attributes</th></tr>
 *   <tr><td>{@code sluice.schedule}</td><td>the context current where {@code schedule} was
 *       called</td><td>the wait for admission and the callback, until its future completes</td>
 *       <td>{@code sluice.pool}, {@code sluice.weight}, {@code sluice.lease_id} and {@code
 *       sluice.fencing_token} once admitted, {@code sluice.outcome}</td></tr>
 *   <tr><td>{@code sluice.execute}</td><td>the context current where {@code execute} (or its
 *       blocking form {@code call(task, options)}) was called</td><td>a managed execution, every attempt and delay</td>
 *       <td>{@code sluice.pool}, {@code sluice.weight}, {@code sluice.operation_id}, {@code
 *       sluice.outcome}</td></tr>
 *   <tr><td>{@code sluice.attempt}</td><td>its {@code sluice.execute}</td><td>one attempt: its
 *       wait for admission and its task</td><td>{@code sluice.pool}, {@code sluice.operation_id},
 *       {@code sluice.attempt} (1, 2, …), {@code sluice.lease_id}, {@code sluice.fencing_token},
 *       {@code sluice.attempt.outcome} (the classifier's {@code success}, {@code neutral}, {@code
 *       throttle} or {@code service_failure}), {@code sluice.outcome}</td></tr>
 * </table>
 *
 * <p>{@code sluice.outcome} is {@code completed}, {@code failed} (the user's code threw), {@code
 * cancelled} (the caller withdrew it), or the refusal: {@code queue_timeout}, {@code
 * lease_expired}, {@code closed}, {@code draining}, {@code circuit_open}, {@code
 * execution_timeout}, {@code attempt_timeout}, {@code backend_failure}. A failed span has status
 * {@code ERROR} and the exception recorded. While a callback or an attempt's task runs, its span is
 * the current span on that thread, so the application's own spans there are its children. Each span
 * ends before the future of its work completes.
 *
 * <p>The blocking form of {@code execute}, {@code call(task, options)}, makes the same spans on the
 * caller's thread: each attempt's span is current there while its task runs, and every span ends
 * before the call returns or throws. The other blocking forms ({@code call(Callable)}, {@code
 * acquire}) run on the caller's thread, whose context is already current, and make no span.
 *
 * <p>Thread-safe; never blocks (beyond what the SDK's span processors do).
 */
public final class SluiceTracing implements Instrumentation {
  /** The instrumentation scope name of Sluice's tracer. */
  public static final String SCOPE = "dev.sluice";

  private final Tracer tracer;

  private SluiceTracing(Tracer tracer) {
    this.tracer = tracer;
  }

  /**
   * Spans through {@code openTelemetry}'s tracer provider.
   *
   * @param openTelemetry the application's OpenTelemetry
   * @return the instrumentation to give to {@code LimiterOptions}
   */
  public static SluiceTracing of(OpenTelemetry openTelemetry) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    return new SluiceTracing(openTelemetry.getTracer(SCOPE));
  }

  @Override
  public Observation schedule(String pool, ScheduleOptions options) {
    Context parent = Context.current();
    Span span =
        tracer
            .spanBuilder("sluice.schedule")
            .setParent(parent)
            .setAttribute(SpanObservation.POOL, pool)
            .setAttribute(SpanObservation.WEIGHT, options.weight())
            .startSpan();
    return new SpanObservation(span, parent);
  }

  @Override
  public Observation execute(String pool, String operationId, ExecuteOptions options) {
    Context parent = Context.current();
    Span span =
        tracer
            .spanBuilder("sluice.execute")
            .setParent(parent)
            .setAttribute(SpanObservation.POOL, pool)
            .setAttribute(SpanObservation.WEIGHT, options.schedule().weight())
            .setAttribute(SpanObservation.OPERATION_ID, operationId)
            .startSpan();
    return new ExecutionObservation(span, parent, pool, operationId);
  }

  @Override
  public Observation attempt(Observation execution, int attempt) {
    if (!(execution instanceof ExecutionObservation e)) {
      // Another hook's execution: nothing to join.
      return Observation.NONE;
    }
    Span span =
        tracer
            .spanBuilder("sluice.attempt")
            .setParent(e.context())
            .setAttribute(SpanObservation.POOL, e.pool)
            .setAttribute(SpanObservation.OPERATION_ID, e.operationId)
            .setAttribute(SpanObservation.ATTEMPT, (long) attempt)
            .startSpan();
    return new SpanObservation(span, e.context());
  }

  /** An execution's span, which remembers what its attempts' spans repeat. */
  private static final class ExecutionObservation extends SpanObservation {
    final String pool;
    final String operationId;

    ExecutionObservation(Span span, Context parent, String pool, String operationId) {
      super(span, parent);
      this.pool = pool;
      this.operationId = operationId;
    }
  }
}
