/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import dev.sluice.testkit.workflow.WorkflowConformanceSuite;
import dev.sluice.testkit.workflow.WorkflowStoreFactory;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;

/**
 * The PostgreSQL workflow store runs the whole workflow conformance suite, unchanged, against the
 * real server, in a schema of its own that is dropped afterwards; each test's store has a table
 * prefix of its own, and runs on the suite's manual clock (the store's client clock).
 */
class PostgresWorkflowConformanceTest extends WorkflowConformanceSuite {
  private static final TestDatabase DB = TestDatabase.create(32);

  @AfterAll
  static void dropSchema() throws Exception {
    DB.close();
  }

  @Override
  protected WorkflowStoreFactory stores() {
    return (name, clock) -> DB.workflows().tablePrefix(prefix(name)).clientClock(clock).build();
  }

  /** A table prefix for a test's store name: lower case, other characters as underscores. */
  static String prefix(String name) {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_";
  }
}
