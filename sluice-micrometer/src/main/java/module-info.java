/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Micrometer meters for Sluice limiters ({@code dev.sluice.micrometer.SluiceMetrics}), for the job
 * gate ({@code dev.sluice.micrometer.GateMetrics}, which needs {@code sluice-gate} on the path) and
 * for workflow runtimes ({@code dev.sluice.micrometer.WorkflowMetrics}, which needs {@code
 * sluice-workflow}).
 */
module dev.sluice.micrometer {
  requires transitive dev.sluice;
  requires transitive micrometer.core;
  // Only GateMetrics uses the gate; a limiter-only user need not have it.
  requires static dev.sluice.gate;
  // Only WorkflowMetrics uses workflows.
  requires static dev.sluice.workflow;

  exports dev.sluice.micrometer;
}
