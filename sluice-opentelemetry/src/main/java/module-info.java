/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * OpenTelemetry tracing for Sluice limiters ({@code dev.sluice.opentelemetry.SluiceTracing}) and
 * workflows ({@code dev.sluice.opentelemetry.WorkflowTracing}), on the OpenTelemetry API only.
 */
module dev.sluice.opentelemetry {
  requires transitive dev.sluice;
  // Only WorkflowTracing uses it; an application without workflows leaves it out.
  requires static transitive dev.sluice.workflow;
  requires transitive io.opentelemetry.api;
  requires transitive io.opentelemetry.context;

  exports dev.sluice.opentelemetry;
}
