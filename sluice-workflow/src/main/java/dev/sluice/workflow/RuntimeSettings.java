/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

import dev.sluice.workflow.spi.WorkflowStore;
import java.time.Duration;
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
 * @param executionTimeouts per workflow name, the execution timeout of its executions unless a
 *     submit sets one
 * @param retention how long finished executions are kept before they are purged automatically
 * @param globalMaxConcurrent per workflow name, how many of its executions may run at once on the
 *     whole store, in every runtime together
 */
public record RuntimeSettings(
    WorkflowStore store,
    List<Workflow<?, ?>> workflows,
    int workers,
    Map<String, Integer> maxConcurrent,
    WorkflowCodec codec,
    Map<String, Duration> executionTimeouts,
    Duration retention,
    Map<String, Integer> globalMaxConcurrent) {
  /** The number of worker threads unless set. */
  public static final int DEFAULT_WORKERS = 4;

  /** The most worker threads a runtime may have. */
  public static final int MAX_WORKERS = 1024;

  /** How many executions one purge transaction deletes at most. */
  public static final int PURGE_BATCH = 500;

  /** How long finished executions are kept unless set: 7 days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  /** The shortest retention: one millisecond (the store's time unit). */
  public static final Duration MIN_RETENTION = Duration.ofMillis(1);

  /** The longest retention: 36,500 days. */
  public static final Duration MAX_RETENTION = Duration.ofDays(36_500);

  /** The shortest execution timeout: one millisecond (the store's time unit). */
  public static final Duration MIN_EXECUTION_TIMEOUT = Duration.ofMillis(1);

  /** The longest execution timeout: 36,500 days. */
  public static final Duration MAX_EXECUTION_TIMEOUT = Duration.ofDays(36_500);

  /**
   * The settings without execution timeouts and with the default retention.
   *
   * @param store where executions live
   * @param workflows the registered workflow versions
   * @param workers the number of worker threads
   * @param maxConcurrent per workflow name, how many of its executions may run at once here
   * @param codec how values become payloads
   */
  public RuntimeSettings(
      WorkflowStore store,
      List<Workflow<?, ?>> workflows,
      int workers,
      Map<String, Integer> maxConcurrent,
      WorkflowCodec codec) {
    this(store, workflows, workers, maxConcurrent, codec, Map.of(), DEFAULT_RETENTION, Map.of());
  }

  /** Checks every component, naming the field and the value. */
  public RuntimeSettings {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(retention, "retention");
    workflows = List.copyOf(workflows);
    maxConcurrent = Map.copyOf(maxConcurrent);
    globalMaxConcurrent = Map.copyOf(globalMaxConcurrent);
    executionTimeouts = Map.copyOf(executionTimeouts);
    checkRange("retention", retention, MIN_RETENTION, MAX_RETENTION);
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
    checkLimits("maxConcurrent", maxConcurrent, names);
    checkLimits("globalMaxConcurrent", globalMaxConcurrent, names);
    for (Map.Entry<String, Duration> e : executionTimeouts.entrySet()) {
      if (!names.contains(e.getKey())) {
        throw new IllegalArgumentException(
            "executionTimeout names workflow '"
                + e.getKey()
                + "', which is not registered (registered: "
                + names
                + ")");
      }
      checkExecutionTimeout("executionTimeout of workflow '" + e.getKey() + "'", e.getValue());
    }
  }

  private static void checkLimits(String field, Map<String, Integer> limits, Set<String> names) {
    for (Map.Entry<String, Integer> e : limits.entrySet()) {
      if (!names.contains(e.getKey())) {
        throw new IllegalArgumentException(
            field
                + " names workflow '"
                + e.getKey()
                + "', which is not registered (registered: "
                + names
                + ")");
      }
      if (e.getValue() < 1) {
        throw new IllegalArgumentException(
            field
                + " of workflow '"
                + e.getKey()
                + "' must be at least 1 (allowed 1.."
                + Integer.MAX_VALUE
                + "), was "
                + e.getValue());
      }
    }
  }

  /**
   * Checks an execution timeout.
   *
   * @param field the field's name, for the message
   * @param value the timeout
   * @throws IllegalArgumentException naming the field, the value and the allowed range
   */
  static void checkExecutionTimeout(String field, Duration value) {
    checkRange(field, value, MIN_EXECUTION_TIMEOUT, MAX_EXECUTION_TIMEOUT);
  }

  private static void checkRange(String field, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          field + " must be between " + min + " and " + max + ", was " + value);
    }
  }

  /** The execution timeout of new executions of {@code workflow}, unless a submit sets one. */
  public java.util.Optional<Duration> executionTimeout(String workflow) {
    return java.util.Optional.ofNullable(executionTimeouts.get(workflow));
  }
}
