/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.memory;

import dev.sluice.TimeSource;
import dev.sluice.workflow.spi.WorkflowSession;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An owner of an in-memory workflow store. Units of work run on the calling thread under the
 * store's monitor; a unit that wrote wakes every session afterwards, on the same thread, as a
 * cross-process store's pulse would. Thread-safe.
 */
final class MemorySession implements WorkflowSession {
  private final MemoryData data;
  private final String ownerId;
  private final TimeSource clock;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Runnable onChange;

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
    boolean wrote;
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
      wrote = tx.wrote();
    }
    if (wrote) {
      data.wakeAll();
    }
    return result;
  }

  void wake() {
    Runnable action = onChange;
    if (action != null) {
      action.run();
    }
  }

  @Override
  public void onChange(Runnable onChange) {
    this.onChange = onChange;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      data.leave(this);
    }
  }
}
