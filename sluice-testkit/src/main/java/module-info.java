/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The conformance suites every Sluice store runs unchanged (limiter pools in {@code
 * dev.sluice.testkit}, workflow stores in {@code dev.sluice.testkit.workflow}), the manual clock
 * tests use, and the worker JVMs that every workflow store's process tests start ({@code
 * dev.sluice.testkit.workflow.process}). The package is open so that JUnit can run the suites'
 * nested cases.
 */
open module dev.sluice.testkit {
  requires transitive dev.sluice;
  requires transitive dev.sluice.workflow;
  requires transitive org.junit.jupiter.api;
  requires org.assertj.core;

  exports dev.sluice.testkit;
  exports dev.sluice.testkit.workflow;
  exports dev.sluice.testkit.workflow.process;
}
