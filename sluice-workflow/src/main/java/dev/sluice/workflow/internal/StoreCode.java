/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import java.util.function.Supplier;

/**
 * Marks the thread while a durable store's updater or condition runs, inside a unit of work and so
 * under the store's lock. Such code must not use the runtime, a workflow context or a store: on a
 * store whose units run on one thread per session, a nested unit would wait for itself and every
 * process on the store with it; on a store with a re-entrant lock it would run nested. Both are
 * refused the same way, with an {@link IllegalStateException} that fails the updater.
 *
 * <p>Thread-safe (the mark is per thread).
 */
final class StoreCode {
  private static final ThreadLocal<Boolean> RUNNING = new ThreadLocal<>();

  private StoreCode() {}

  /** Runs an updater or condition with the thread marked. */
  static <T> T run(Supplier<T> code) {
    RUNNING.set(Boolean.TRUE);
    try {
      return code.get();
    } finally {
      RUNNING.remove();
    }
  }

  /** Refuses {@code what} if the calling thread is running an updater or condition. */
  static void refuseInside(String what) {
    if (RUNNING.get() != null) {
      throw new IllegalStateException(
          what
              + " was called from a durable store's updater or condition, which runs inside the"
              + " store's transaction; updaters and conditions may only compute a value from the"
              + " state they are given");
    }
  }
}
