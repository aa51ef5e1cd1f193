/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.micrometer;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.StepEvent;
import dev.sluice.workflow.WorkflowRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Micrometer meters for one {@link WorkflowRuntime} and its store:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>What</th></tr>
 *   <tr><td>{@code sluice.workflow.executions}</td><td>gauge</td>
 *       <td>executions in the store by {@code status} ({@code queued}, {@code running}, {@code
 *       waiting}, {@code completed}, {@code failed}, {@code cancelled}, {@code timed_out}), every
 *       runtime's</td></tr>
 *   <tr><td>{@code sluice.workflow.step.duration}</td><td>timer</td>
 *       <td>how long this runtime's step bodies ran, by {@code workflow} and {@code outcome}
 *       ({@code succeeded}, {@code retrying}, {@code failed})</td></tr>
 *   <tr><td>{@code sluice.workflow.steps}</td><td>counter</td>
 *       <td>this runtime's step body runs, by {@code workflow} and {@code outcome}</td></tr>
 * </table>
 *
 * <p>The status gauges read the counts from the store ({@link
 * dev.sluice.workflow.WorkflowInspector#counts()}), one read per scrape reused by every status; the
 * timer and counter count what the runtime reports through {@link WorkflowRuntime#onStep}.
 *
 * <pre>{@code
 * WorkflowMetrics metrics = WorkflowMetrics.of(runtime);
 * metrics.bindTo(registry);
 * ...
 * metrics.close();   // stops counting steps; the meters stay registered
 * }</pre>
 *
 * <p>Thread-safe. Reading a gauge blocks on the store; counting a step does not.
 */
public final class WorkflowMetrics implements MeterBinder, AutoCloseable {
  private final WorkflowRuntime runtime;
  private final List<AutoCloseable> subscriptions = new ArrayList<>();

  private WorkflowMetrics(WorkflowRuntime runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /** Meters for {@code runtime}. */
  public static WorkflowMetrics of(WorkflowRuntime runtime) {
    return new WorkflowMetrics(runtime);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    StatusCounts counts = new StatusCounts(runtime);
    for (ExecutionStatus s : ExecutionStatus.values()) {
      Gauge.builder("sluice.workflow.executions", counts, c -> c.count(s))
          .tags(Tags.of("status", s.code()))
          .description("executions in the workflow store by status")
          // Only the gauges hold the counts: a weak reference would let a collection turn them
          // into NaN.
          .strongReference(true)
          .register(registry);
    }
    AutoCloseable sub = runtime.onStep(e -> count(registry, e));
    synchronized (subscriptions) {
      subscriptions.add(sub);
    }
  }

  private static void count(MeterRegistry registry, StepEvent e) {
    Tags tags = Tags.of("workflow", e.workflow(), "outcome", e.outcome().code());
    Timer.builder("sluice.workflow.step.duration")
        .tags(tags)
        .description("how long step bodies ran")
        .register(registry)
        .record(e.duration());
    Counter.builder("sluice.workflow.steps")
        .tags(tags)
        .description("step body runs")
        .register(registry)
        .increment();
  }

  /** Stops counting steps; the meters stay registered, the gauges keep reading the store. */
  @Override
  public void close() {
    synchronized (subscriptions) {
      for (AutoCloseable s : subscriptions) {
        try {
          s.close();
        } catch (Exception e) {
          // Removing a listener from a list cannot fail.
        }
      }
      subscriptions.clear();
    }
  }

  /**
   * The counts by status, read once per scrape: the first gauge read after {@link #STALE_NANOS}
   * reads the store, the others of the same scrape reuse it.
   */
  private static final class StatusCounts {
    private static final long STALE_NANOS = 500_000_000L;
    private final WorkflowRuntime runtime;
    private Map<ExecutionStatus, Long> counts;
    private long readAt;

    StatusCounts(WorkflowRuntime runtime) {
      this.runtime = runtime;
    }

    synchronized double count(ExecutionStatus s) {
      long now = System.nanoTime();
      if (counts == null || now - readAt > STALE_NANOS) {
        try {
          counts = runtime.inspector().counts();
        } catch (RuntimeException e) {
          // A closed runtime or an unreachable store: the gauge has no value now.
          counts = null;
          return Double.NaN;
        }
        readAt = now;
      }
      return counts.getOrDefault(s, 0L);
    }
  }
}
