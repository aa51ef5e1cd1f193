/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.workflow.spi.WorkflowStore;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The checked settings of a {@link WorkflowRuntime}, as {@link WorkflowRuntime.Builder} collects
 * them.
 *
 * <p>Immutable and thread-safe.
 *
 * @param store where executions live
 * @param workflows the registered workflow versions, no two with the same name and version
 * @param workers the number of worker threads, 1 to 1024
 * @param maxConcurrent per workflow name, how many of its executions may run at once here
 * @param codec how values become payloads
 */
public record RuntimeSettings(
    WorkflowStore store,
    List<Workflow<?, ?>> workflows,
    int workers,
    Map<String, Integer> maxConcurrent,
    WorkflowCodec codec) {
  /** The number of worker threads unless set. */
  public static final int DEFAULT_WORKERS = 4;

  /** The most worker threads a runtime may have. */
  public static final int MAX_WORKERS = 1024;

  /** Checks every component, naming the field and the value. */
  public RuntimeSettings {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(codec, "codec");
    workflows = List.copyOf(workflows);
    maxConcurrent = Map.copyOf(maxConcurrent);
    if (workers < 1 || workers > MAX_WORKERS) {
      throw new IllegalArgumentException(
          "workers must be between 1 and " + MAX_WORKERS + ", was " + workers);
    }
    Set<String> versions = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (Workflow<?, ?> w : workflows) {
      if (!versions.add(w.name() + "@" + w.version())) {
        throw new IllegalArgumentException(
            "workflow '" + w.name() + "' version " + w.version() + " is registered twice");
      }
      names.add(w.name());
    }
    for (Map.Entry<String, Integer> e : maxConcurrent.entrySet()) {
      if (!names.contains(e.getKey())) {
        throw new IllegalArgumentException(
            "maxConcurrent names workflow '"
                + e.getKey()
                + "', which is not registered (registered: "
                + names
                + ")");
      }
      if (e.getValue() < 1) {
        throw new IllegalArgumentException(
            "maxConcurrent of workflow '"
                + e.getKey()
                + "' must be at least 1 (allowed 1.."
                + Integer.MAX_VALUE
                + "), was "
                + e.getValue());
      }
    }
  }
}
