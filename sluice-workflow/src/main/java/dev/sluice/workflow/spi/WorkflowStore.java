/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import dev.sluice.TimeSource;

/**
 * Where executions, their recorded steps and their timers live: the in-memory store for tests, a
 * SQLite directory for one machine, PostgreSQL for many. A store persists rows, runs a unit of work
 * atomically, wakes the runtimes on it when something changed, and proves owners dead; it holds no
 * workflow algorithm of its own (replay, claims, timers and submit idempotency are the runtime's,
 * the same for every store).
 *
 * <p>A {@code WorkflowStore} is a handle: cheap to create, naming one store. Implementations must
 * be thread-safe.
 */
public interface WorkflowStore {
  /** Returns the store's name, for messages and thread names. */
  String name();

  /** Returns the clock of the store's shared deadlines (timers, retention). */
  TimeSource clock();

  /**
   * Joins the store as a new owner: one per runtime. The store keeps the owner's liveness (a lock
   * file, a database session) until {@link WorkflowSession#close()} or the process ends.
   *
   * <p>May block on I/O and on the store's lock.
   *
   * @return the owner's session
   * @throws dev.sluice.StoreFormatException if the store holds data this library cannot read
   * @throws dev.sluice.BackendFailureException if the store cannot be reached
   */
  WorkflowSession open();
}
