/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The workflow versions a runtime runs, and how many executions of each workflow it runs now
 * against its per-workflow limits. Thread-safe.
 */
final class Registry {
  private final Map<String, Workflow<?, ?>> byVersion = new HashMap<>();
  private final Map<String, Workflow<?, ?>> latest = new HashMap<>();
  private final Set<WorkflowVersion> versions = new HashSet<>();
  private final Map<String, Integer> limits;
  private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();

  Registry(List<Workflow<?, ?>> workflows, Map<String, Integer> limits) {
    for (Workflow<?, ?> w : workflows) {
      byVersion.put(key(w.name(), w.version()), w);
      versions.add(new WorkflowVersion(w.name(), w.version()));
      latest.merge(w.name(), w, (a, b) -> a.version() >= b.version() ? a : b);
      running.putIfAbsent(w.name(), new AtomicInteger());
    }
    this.limits = Map.copyOf(limits);
  }

  private static String key(String name, int version) {
    return name + "@" + version;
  }

  Set<String> names() {
    return latest.keySet();
  }

  Optional<Workflow<?, ?>> find(String name, int version) {
    return Optional.ofNullable(byVersion.get(key(name, version)));
  }

  Optional<Workflow<?, ?>> anyVersion(String name) {
    return Optional.ofNullable(latest.get(name));
  }

  /**
   * Whether a workflow of {@code w}'s name and version with the same input and output types is
   * registered; the registered definition's function is the one that runs.
   */
  boolean isRegistered(Workflow<?, ?> w) {
    Workflow<?, ?> r = byVersion.get(key(w.name(), w.version()));
    return r != null
        && r.inputType().equals(w.inputType())
        && r.outputType().equals(w.outputType());
  }

  /** The registered versions of the workflows whose limit in this runtime leaves room now. */
  Set<WorkflowVersion> runnableNow() {
    Set<WorkflowVersion> out = new HashSet<>();
    for (WorkflowVersion v : versions) {
      Integer limit = limits.get(v.workflow());
      if (limit == null || running.get(v.workflow()).get() < limit) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * Reserves a run of the execution's workflow if its version is registered and its limit allows;
   * the caller must {@link #finished} it.
   */
  boolean tryReserve(ExecutionRecord e) {
    if (!byVersion.containsKey(key(e.workflow(), e.version()))) {
      return false;
    }
    AtomicInteger n = running.get(e.workflow());
    Integer limit = limits.get(e.workflow());
    while (true) {
      int current = n.get();
      if (limit != null && current >= limit) {
        return false;
      }
      if (n.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  void finished(String workflow) {
    running.get(workflow).decrementAndGet();
  }
}
