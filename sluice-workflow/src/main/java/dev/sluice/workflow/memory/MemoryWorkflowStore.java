/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.memory;

import dev.sluice.TimeSource;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowStore;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A workflow store that lives in this JVM, keyed by name: two handles with the same name reach the
 * same executions, so a runtime closed and built again on the same name finds them (a restart
 * within the JVM). Meant for tests; its rows are kept for the life of the JVM unless purged, and
 * its queries scan.
 *
 * <p>Units of work run under the store's monitor on the calling thread. An owner is dead once its
 * session is closed. Thread-safe.
 */
public final class MemoryWorkflowStore implements WorkflowStore {
  private static final int MAX_NAME_LENGTH = 1024;
  private static final ConcurrentHashMap<String, MemoryData> STORES = new ConcurrentHashMap<>();

  private final String name;
  private final TimeSource clock;

  private MemoryWorkflowStore(String name, TimeSource clock) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "memory workflow store name must be non-blank and at most "
              + MAX_NAME_LENGTH
              + " characters, was '"
              + (name.length() > 64 ? name.substring(0, 64) + "…" : name)
              + "' ("
              + name.length()
              + " characters)");
    }
    this.name = name;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Returns the store named {@code name} in this JVM, on the system clock.
   *
   * @param name a non-blank name of at most 1024 characters
   * @return the store
   */
  public static MemoryWorkflowStore named(String name) {
    return new MemoryWorkflowStore(name, TimeSource.system());
  }

  /**
   * Returns the store named {@code name}, with its own clock (tests use a manual one).
   *
   * @param name a non-blank name of at most 1024 characters
   * @param clock the clock of its timers
   * @return the store
   */
  public static MemoryWorkflowStore named(String name, TimeSource clock) {
    return new MemoryWorkflowStore(name, clock);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public TimeSource clock() {
    return clock;
  }

  @Override
  public WorkflowSession open() {
    MemoryData data = STORES.computeIfAbsent(name, k -> new MemoryData());
    return data.join(clock);
  }

  @Override
  public String toString() {
    return "MemoryWorkflowStore[" + name + "]";
  }
}
