/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.memory;

import dev.sluice.TimeSource;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** The rows of one in-memory store and its open sessions. Guarded by its own monitor. */
final class MemoryData {
  private static final AtomicLong OWNERS = new AtomicLong();

  final Map<String, ExecutionRecord> executions = new HashMap<>();
  final Map<String, TreeMap<Integer, StepRecord>> steps = new HashMap<>();
  final Map<String, TimerRecord> timers = new HashMap<>();

  /** Documents by {@link #documentKey}. */
  final Map<List<String>, DocumentRecord> documents = new HashMap<>();

  /** Waiters by execution id. */
  final Map<String, WaiterRecord> waiters = new HashMap<>();

  /** Receipts by store, document id and key. */
  final Map<List<String>, ReceiptRecord> receipts = new HashMap<>();

  private final List<MemorySession> sessions = new CopyOnWriteArrayList<>();

  MemorySession join(TimeSource clock) {
    MemorySession s =
        new MemorySession(
            this, "mem-" + ProcessHandle.current().pid() + "-" + OWNERS.incrementAndGet(), clock);
    sessions.add(s);
    return s;
  }

  void leave(MemorySession s) {
    sessions.remove(s);
    // Another owner may be waiting to take this one's claims over.
    wakeAll(Change.ALL);
  }

  boolean isOpen(String ownerId) {
    for (MemorySession s : sessions) {
      if (s.ownerId().equals(ownerId)) {
        return true;
      }
    }
    return false;
  }

  /** Wakes every open session; called after a commit, outside the monitor. */
  void wakeAll(Set<Change> changes) {
    List<MemorySession> now = new ArrayList<>(sessions);
    for (MemorySession s : now) {
      s.wake(changes);
    }
  }
}
