/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.spi.PoolState;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One in-JVM pool: its state, guarded by this object's monitor, and the sessions to wake when one
 * of them changes it.
 */
final class MemoryPool {
  private final PoolState state;
  private final CopyOnWriteArrayList<MemorySession> sessions = new CopyOnWriteArrayList<>();
  private volatile long sequence;
  private final String name;
  private Set<String> deadOwners = Set.of();

  MemoryPool(String name, PoolState state) {
    this.name = name;
    this.state = state;
  }

  String name() {
    return name;
  }

  /**
   * Records an owner that left without retiring, as its process's death would be proven, and wakes
   * the others: the next command on the pool reclaims what it held.
   */
  void died(String owner) {
    synchronized (this) {
      Set<String> dead = new HashSet<>(deadOwners);
      dead.add(owner);
      deadOwners = Set.copyOf(dead);
    }
    changedBy(null);
  }

  /** The owners proven dead since the last command, which reclaims them; under the monitor. */
  Set<String> takeDeadOwners() {
    Set<String> dead = deadOwners;
    if (!dead.isEmpty()) {
      deadOwners = Set.of();
    }
    return dead;
  }

  PoolState state() {
    return state;
  }

  /** The next command's sequence; called under this object's monitor. */
  long nextSequence() {
    return ++sequence;
  }

  long appliedSequence() {
    return sequence;
  }

  void join(MemorySession session) {
    sessions.add(session);
  }

  void leave(MemorySession session) {
    sessions.remove(session);
  }

  /** Wakes every session but {@code source} (every one for {@code null}), outside the monitor. */
  void changedBy(MemorySession source) {
    if (source != null && sessions.size() < 2) {
      return;
    }
    for (MemorySession s : sessions) {
      if (s != source) {
        s.wake();
      }
    }
  }
}
