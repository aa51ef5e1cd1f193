/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Micrometer meters for Sluice limiters ({@code dev.sluice.micrometer.SluiceMetrics}) and workflow
 * runtimes ({@code dev.sluice.micrometer.WorkflowMetrics}).
 */
module dev.sluice.micrometer {
  requires transitive dev.sluice;
  requires transitive dev.sluice.workflow;
  requires transitive micrometer.core;

  exports dev.sluice.micrometer;
}
