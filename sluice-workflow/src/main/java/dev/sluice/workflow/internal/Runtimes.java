/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.RuntimeSettings;
import dev.sluice.workflow.WorkflowInstrumentation;
import dev.sluice.workflow.WorkflowRuntime;

/** Builds runtimes for {@link WorkflowRuntime.Builder}; not part of the API. */
public final class Runtimes {
  private Runtimes() {}

  /**
   * Builds a runtime and opens its session on the store; it claims nothing until started.
   *
   * @param settings checked settings
   * @return the runtime
   */
  public static WorkflowRuntime create(RuntimeSettings settings) {
    return new WorkflowRuntimeImpl(settings, null);
  }

  /**
   * Builds a runtime whose submits and steps {@code instrumentation} observes.
   *
   * @param settings checked settings
   * @param instrumentation the hook, or null for none
   * @return the runtime
   */
  public static WorkflowRuntime create(
      RuntimeSettings settings, WorkflowInstrumentation instrumentation) {
    return new WorkflowRuntimeImpl(settings, instrumentation);
  }
}
