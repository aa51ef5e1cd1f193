/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Sluice workflows: the API ({@code dev.sluice.workflow}), the store SPI ({@code
 * dev.sluice.workflow.spi}) and the in-memory store ({@code dev.sluice.workflow.memory}). Replay,
 * claims, timers and the worker runtime in {@code dev.sluice.workflow.internal} are not exported.
 */
module dev.sluice.workflow {
  requires transitive dev.sluice;
  // WorkflowCodec.jackson(ObjectMapper) names a Jackson type in the API.
  requires transitive com.fasterxml.jackson.databind;

  exports dev.sluice.workflow;
  exports dev.sluice.workflow.spi;
  exports dev.sluice.workflow.memory;
}
