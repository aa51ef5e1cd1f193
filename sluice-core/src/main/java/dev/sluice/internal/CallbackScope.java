/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

/**
 * What the current thread is doing for limiters: running one's callback, or completing one's
 * futures. A close from inside a callback of its own limiter would wait for that callback, and a
 * close from a continuation of a future being completed would wait for that future's request; the
 * limiter refuses the first and counts the second as ended.
 *
 * <p>Thread-confined: each thread sees only its own marks.
 */
final class CallbackScope {
  private static final ThreadLocal<LimiterImpl> CURRENT = new ThreadLocal<>();
  private static final ThreadLocal<InFlight> COMPLETING = new ThreadLocal<>();

  private CallbackScope() {}

  /** Marks this thread as running a callback of {@code limiter}; returns the outer mark. */
  static LimiterImpl enter(LimiterImpl limiter) {
    LimiterImpl outer = CURRENT.get();
    CURRENT.set(limiter);
    return outer;
  }

  /** Restores the mark {@link #enter} returned; a nested callback's caller keeps its own. */
  static void exit(LimiterImpl outer) {
    // set(null) keeps the thread's map entry, cheaper than remove() on every call.
    CURRENT.set(outer);
  }

  /** Whether this thread runs a callback of {@code limiter}. */
  static boolean inCallbackOf(LimiterImpl limiter) {
    return CURRENT.get() == limiter;
  }

  /**
   * Runs {@code completion}, which completes {@code t}'s future. While it runs, a {@code close()}
   * from one of the future's continuations counts {@code t} as ended instead of waiting for it,
   * which would wait for itself.
   */
  static void completing(InFlight t, Runnable completion) {
    InFlight outer = COMPLETING.get();
    t.outerCompletion(outer);
    COMPLETING.set(t);
    try {
      completion.run();
    } finally {
      COMPLETING.set(outer);
    }
  }

  /**
   * Counts as ended every request of {@code limiter} whose future this thread is completing: a
   * close from a continuation of such a future must not wait for it, since the future is done.
   */
  static void endCompletionsOf(LimiterImpl limiter) {
    for (InFlight t = COMPLETING.get(); t != null; t = t.outerCompletion()) {
      if (t.owner() == limiter) {
        t.end();
      }
    }
  }
}
