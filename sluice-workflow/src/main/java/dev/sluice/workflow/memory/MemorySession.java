/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.memory;

import dev.sluice.TimeSource;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * An owner of an in-memory workflow store. Units of work run on the calling thread under the
 * store's monitor; a unit that wrote wakes every session afterwards with what it changed, on the
 * same thread, as a cross-process store's pulse would. Thread-safe.
 */
final class MemorySession implements WorkflowSession {
  private final MemoryData data;
  private final String ownerId;
  private final TimeSource clock;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Consumer<Set<Change>> onChange;

  MemorySession(MemoryData data, String ownerId, TimeSource clock) {
    this.data = data;
    this.ownerId = ownerId;
    this.clock = clock;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> R transact(Unit<R> unit) {
    if (closed.get()) {
      throw new IllegalStateException("session " + ownerId + " is closed");
    }
    if (Thread.holdsLock(data)) {
      throw new IllegalStateException(
          "a unit of work on workflow store session " + ownerId + " tried to start another one");
    }
    R result;
    Set<Change> changes;
    synchronized (data) {
      MemoryTransaction tx = new MemoryTransaction(data, clock.wallMillis(), ownerId);
      try {
        result = unit.apply(tx);
      } catch (RuntimeException | Error e) {
        tx.rollback();
        throw e;
      } finally {
        tx.end();
      }
      changes = Set.copyOf(tx.changes());
    }
    if (!changes.isEmpty()) {
      data.wakeAll(changes);
    }
    return result;
  }

  void wake(Set<Change> changes) {
    Consumer<Set<Change>> action = onChange;
    if (action != null) {
      action.accept(changes);
    }
  }

  @Override
  public void onChange(Consumer<Set<Change>> onChange) {
    this.onChange = onChange;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      data.leave(this);
    }
  }
}
