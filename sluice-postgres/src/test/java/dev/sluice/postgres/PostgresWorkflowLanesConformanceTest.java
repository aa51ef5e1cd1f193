/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import dev.sluice.testkit.workflow.WorkflowConformanceSuite;
import dev.sluice.testkit.workflow.WorkflowStoreFactory;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole workflow conformance suite again, unchanged, on a PostgreSQL store whose runtimes keep
 * three connections for claims and step writes ({@code stepConnections(3)}): claims and the units
 * of different executions of one runtime then commit beside each other, under the store's lock
 * taken shared, as they do across JVMs.
 */
class PostgresWorkflowLanesConformanceTest extends WorkflowConformanceSuite {
  private static final TestDatabase DB = TestDatabase.create(48);

  @AfterAll
  static void dropSchema() throws Exception {
    DB.close();
  }

  @Override
  protected WorkflowStoreFactory stores() {
    return (name, clock) ->
        DB.workflows()
            .tablePrefix(PostgresWorkflowConformanceTest.prefix(name))
            .clientClock(clock)
            .stepConnections(3)
            .build();
  }
}
