/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

/**
 * One observed piece of work, made by an {@link Instrumentation} (or a workflow runtime's hook): a
 * {@code schedule} request, a managed execution, one attempt, a workflow step. Sluice tells it, in
 * this order, that it was admitted (if it was), that user code runs for it ({@link #enter()}, on
 * the thread that runs the code, whose returned scope is closed on that same thread when the code
 * returned), and how it ended ({@link #end(Throwable)}, exactly once, before the work's future
 * completes).
 *
 * <p>Implementations must be thread-safe (the calls come from different threads, one after the
 * other) and must not block.
 */
public interface Observation {
  /** An observation that observes nothing. */
  Observation NONE =
      new Observation() {
        @Override
        public Scope enter() {
          return Scope.NONE;
        }

        @Override
        public void end(Throwable failure) {}
      };

  /**
   * The work was admitted with this lease; called before {@link #enter()}.
   *
   * @param admission the admission
   */
  default void admitted(Admission admission) {}

  /**
   * User code is about to run for this work on the calling thread: make its context current there.
   *
   * @return what restores the thread's previous context; closed on the same thread
   */
  Scope enter();

  /**
   * The classifier judged an attempt of a managed execution; called before {@link #end}.
   *
   * @param outcome the judgement
   */
  default void classified(AttemptOutcome outcome) {}

  /**
   * The work ended.
   *
   * @param failure null if it completed normally; otherwise the exception its future completes
   *     with: the callback's own, a {@link SluiceException} that refused it, or a {@link
   *     java.util.concurrent.CancellationException} when the caller withdrew it (cancelled or
   *     completed its future before it started)
   */
  void end(Throwable failure);

  /** Restores a thread's context that {@link #enter()} replaced. */
  @FunctionalInterface
  interface Scope extends AutoCloseable {
    /** A scope that restores nothing. */
    Scope NONE = () -> {};

    /** Restores the previous context; never throws. */
    @Override
    void close();
  }
}
