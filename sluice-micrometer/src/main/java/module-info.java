/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/** Micrometer meters for Sluice limiters ({@code dev.sluice.micrometer.SluiceMetrics}). */
module dev.sluice.micrometer {
  requires transitive dev.sluice;
  requires transitive micrometer.core;

  exports dev.sluice.micrometer;
}
