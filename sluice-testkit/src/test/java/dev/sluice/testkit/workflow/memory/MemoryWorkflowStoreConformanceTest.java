/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow.memory;

import dev.sluice.testkit.workflow.WorkflowConformanceSuite;
import dev.sluice.testkit.workflow.WorkflowStoreFactory;
import dev.sluice.workflow.memory.MemoryWorkflowStore;

/** The in-memory workflow store runs the whole workflow conformance suite. */
class MemoryWorkflowStoreConformanceTest extends WorkflowConformanceSuite {
  @Override
  protected WorkflowStoreFactory stores() {
    return (name, clock) -> MemoryWorkflowStore.named(name, clock);
  }
}
