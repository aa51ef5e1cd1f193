/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.testkit.workflow.WorkflowConformanceSuite;
import dev.sluice.testkit.workflow.WorkflowStoreFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite workflow store runs the whole workflow conformance suite, on real files. */
class SqliteWorkflowStoreConformanceTest extends WorkflowConformanceSuite {
  @TempDir static Path root;

  @Override
  protected WorkflowStoreFactory stores() {
    return (name, clock) -> SqliteWorkflowStore.directory(root.resolve(name)).withClock(clock);
  }
}
