/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.opentelemetry;

import dev.sluice.Admission;
import dev.sluice.AttemptOutcome;
import dev.sluice.Observation;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;

/**
 * One span as a Sluice {@link Observation}: entering it makes the span's context current on the
 * thread that runs the user's code, so spans made there are its children; ending it records the
 * outcome and ends the span.
 *
 * <p>Thread-safe: the span is; the context is immutable.
 */
class SpanObservation implements Observation {
  static final AttributeKey<String> POOL = AttributeKey.stringKey("sluice.pool");
  static final AttributeKey<Long> WEIGHT = AttributeKey.longKey("sluice.weight");
  static final AttributeKey<Long> LEASE_ID = AttributeKey.longKey("sluice.lease_id");
  static final AttributeKey<Long> FENCING_TOKEN = AttributeKey.longKey("sluice.fencing_token");
  static final AttributeKey<String> OPERATION_ID = AttributeKey.stringKey("sluice.operation_id");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("sluice.attempt");
  static final AttributeKey<String> ATTEMPT_OUTCOME =
      AttributeKey.stringKey("sluice.attempt.outcome");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("sluice.outcome");
  static final AttributeKey<String> WORKFLOW = AttributeKey.stringKey("sluice.workflow");
  static final AttributeKey<String> EXECUTION_ID = AttributeKey.stringKey("sluice.execution_id");
  static final AttributeKey<String> STEP = AttributeKey.stringKey("sluice.step");
  static final AttributeKey<Boolean> REPLAYED = AttributeKey.booleanKey("sluice.step.replayed");

  private final Span span;
  private final Context context;

  SpanObservation(Span span, Context parent) {
    this.span = span;
    this.context = parent.with(span);
  }

  /** The span's context: the parent of spans made for its parts (an execution's attempts). */
  Context context() {
    return context;
  }

  @Override
  public void admitted(Admission admission) {
    span.setAttribute(LEASE_ID, admission.leaseId());
    span.setAttribute(FENCING_TOKEN, admission.fencingToken());
  }

  @Override
  public Scope enter() {
    io.opentelemetry.context.Scope scope = context.makeCurrent();
    return scope::close;
  }

  @Override
  public void classified(AttemptOutcome outcome) {
    span.setAttribute(ATTEMPT_OUTCOME, Outcomes.of(outcome));
  }

  @Override
  public void end(Throwable failure) {
    span.setAttribute(OUTCOME, Outcomes.of(failure));
    if (failure != null) {
      span.recordException(failure);
      span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
    }
    span.end();
  }
}
