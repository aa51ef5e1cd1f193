/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.spi.PoolState;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One in-JVM pool: its state, guarded by this object's monitor, and the sessions to wake when one
 * of them changes it.
 */
final class MemoryPool {
  private final PoolState state;
  private final CopyOnWriteArrayList<MemorySession> sessions = new CopyOnWriteArrayList<>();
  private volatile long sequence;

  MemoryPool(PoolState state) {
    this.state = state;
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

  /** Wakes every session but {@code source}, outside the monitor. */
  void changedBy(MemorySession source) {
    if (sessions.size() < 2) {
      return;
    }
    for (MemorySession s : sessions) {
      if (s != source) {
        s.wake();
      }
    }
  }
}
