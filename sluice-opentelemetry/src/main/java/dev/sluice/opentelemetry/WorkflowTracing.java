/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import dev.sluice.Observation;
import dev.sluice.workflow.ObservedStep;
import dev.sluice.workflow.WorkflowInstrumentation;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Objects;

/**
 * OpenTelemetry spans for a workflow runtime's steps, joined to the trace that submitted each
 * execution wherever and whenever its steps run: on another worker, in another process, after a
 * crash and a take-over.
 *
 * <pre>{@code
 * WorkflowRuntime runtime = WorkflowRuntime.builder()
 *     .store(store)
 *     .register(checkout)
 *     .instrumentation(WorkflowTracing.of(openTelemetry))
 *     .build();
 * }</pre>
 *
 * <table>
 *   <caption>Spans (tracer {@code dev.sluice})</caption>
 *   <tr><th>Name</th><th>Parent</th><th>Attributes</th></tr>
 *   <tr><td>{@code sluice.workflow.submit}</td><td>the context current where {@code submit} was
 *       called</td><td>{@code sluice.workflow}, {@code sluice.execution_id}</td></tr>
 *   <tr><td>{@code sluice.workflow.step}</td><td>the execution's {@code sluice.workflow.submit}
 *       </td><td>{@code sluice.workflow}, {@code sluice.execution_id}, {@code sluice.step}, {@code
 *       sluice.step.replayed}, {@code sluice.attempt} (0 for a replay), {@code sluice.outcome}
 *       ({@code completed} or {@code failed})</td></tr>
 * </table>
 *
 * <p>The submit span's context is recorded with the new execution as a W3C {@code traceparent} (and
 * {@code tracestate}), in the same unit of work that creates the execution, whatever propagators
 * the application configured; every step span names it as its parent. A step's span covers its body
 * and is current while the body runs, so the application's spans there, and a limiter's {@code
 * sluice.schedule} span for a step in a pool, are its children. A replayed step's span ends at
 * once. An execution submitted without this hook has no carried context: its step spans are
 * children of whatever is current on the worker (usually nothing, a new trace each).
 *
 * <p>Thread-safe; never blocks (beyond what the SDK's span processors do).
 */
public final class WorkflowTracing implements WorkflowInstrumentation {
  private final Tracer tracer;

  private WorkflowTracing(Tracer tracer) {
    this.tracer = tracer;
  }

  /**
   * Spans through {@code openTelemetry}'s tracer provider.
   *
   * @param openTelemetry the application's OpenTelemetry
   * @return the instrumentation to give to {@code WorkflowRuntime.Builder}
   */
  public static WorkflowTracing of(OpenTelemetry openTelemetry) {
    Objects.requireNonNull(openTelemetry, "openTelemetry");
    return new WorkflowTracing(openTelemetry.getTracer(SluiceTracing.SCOPE));
  }

  @Override
  public String carry(String workflow, String executionId) {
    Span submit =
        tracer
            .spanBuilder("sluice.workflow.submit")
            .setParent(Context.current())
            .setAttribute(SpanObservation.WORKFLOW, workflow)
            .setAttribute(SpanObservation.EXECUTION_ID, executionId)
            .startSpan();
    try {
      return CarriedContext.write(Context.current().with(submit));
    } finally {
      submit.end();
    }
  }

  @Override
  public Observation step(ObservedStep step) {
    Context parent = step.carriedContext().map(CarriedContext::read).orElseGet(Context::current);
    Span span =
        tracer
            .spanBuilder("sluice.workflow.step")
            .setParent(parent)
            .setAttribute(SpanObservation.WORKFLOW, step.workflow())
            .setAttribute(SpanObservation.EXECUTION_ID, step.executionId())
            .setAttribute(SpanObservation.STEP, step.stepKey())
            .setAttribute(SpanObservation.REPLAYED, step.replayed())
            .setAttribute(SpanObservation.ATTEMPT, (long) step.attempt())
            .startSpan();
    return new SpanObservation(span, parent);
  }
}
