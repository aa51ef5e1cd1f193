/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One owner's connection to a workflow store. Claims of executions carry the session's {@link
 * #ownerId()}; when the owner dies, another owner's transaction sees {@link
 * WorkflowTransaction#ownerDead} and takes its claims over.
 *
 * <p>Implementations must be thread-safe. Units of work run one at a time per store, each seeing
 * the effects of all earlier ones: as if serial, absent rows included (a unit that found no
 * document and wrote a waiter must not interleave with one that changed that document and read its
 * waiters, or a wake-up is lost); units run by {@link #transactOn} and {@link #transactReadOrClaim}
 * may run beside others only as those methods allow, which keeps every outcome one of a serial
 * order. A unit must not start another; stores refuse it with {@link IllegalStateException} where
 * they can tell. {@link #transact} blocks on the store's lock.
 */
public interface WorkflowSession extends AutoCloseable {
  /** Returns this owner's id, unique among the store's owners, never reused. */
  String ownerId();

  /**
   * Runs a unit of work atomically: under the store's lock or in one database transaction, so that
   * it sees no other unit's partial writes and other units see all or none of its writes. If the
   * unit throws, nothing it wrote is kept and the exception propagates. If it wrote something, the
   * store commits durably and then wakes every session on the store with what it changed (see
   * {@link #onChange}). A store may run the unit again after a conflict it detects at commit (a
   * serialization failure), discarding the earlier run's writes; units must allow that, and the
   * runtime's do.
   *
   * @param unit reads and writes through the transaction; no I/O of its own
   * @param <R> the result type
   * @return the unit's result
   * @throws dev.sluice.BackendFailureException if the store failed; nothing was written
   */
  <R> R transact(Unit<R> unit);

  /**
   * Runs a unit of work exactly like {@link #transact}, telling the store that its first read is
   * {@link WorkflowTransaction#execution execution(executionId)} (a submit, which creates the
   * execution if it is absent, or a cancel): a store may read that row with the statement that
   * begins the transaction, one round trip fewer. This default runs it under {@link #transact}.
   *
   * @param executionId the execution the unit reads first
   * @param unit the unit of work; no I/O of its own
   * @param <R> the result type
   * @return the unit's result
   * @throws dev.sluice.BackendFailureException if the store failed; nothing was written
   */
  default <R> R transactReading(String executionId, Unit<R> unit) {
    return transact(unit);
  }

  /**
   * Runs a unit of work that touches one execution only, like {@link #transact}: the unit reads
   * {@link WorkflowTransaction#execution execution(executionId)} before anything else, and then
   * reads and writes only that execution's own rows (the execution, its steps, its timer and its
   * waiter). A store may run such a unit concurrently with units of other executions, as long as it
   * runs it one at a time with every unit of the same execution and with every unit run by {@link
   * #transact}: units then still appear serial, since they conflict only on the execution's rows
   * (PostgreSQL locks the execution's row at that first read). A store whose units all run one at a
   * time runs it as any other unit, which is what this default does.
   *
   * @param executionId the one execution the unit touches
   * @param unit reads the execution first, then only its rows; no I/O of its own
   * @param <R> the result type
   * @return the unit's result
   * @throws dev.sluice.BackendFailureException if the store failed; nothing was written
   */
  default <R> R transactOn(String executionId, Unit<R> unit) {
    return transact(unit);
  }

  /**
   * Runs a unit of work that only reads, or claims executions ({@link
   * WorkflowTransaction#claimNext}), like {@link #transact}. A store may first run it beside units
   * of other executions ({@link #transactOn}) and other such units, in a view that lets it read and
   * claim only: there {@code claimNext} skips rows that other units hold, and as soon as the unit
   * needs more (a due timer, an owner proven dead, a count of running executions, any write but the
   * claim's own) the view refuses, the store discards the run's writes and runs the unit again
   * under {@link #transact}. The unit must allow that, as it allows a run again after a conflict.
   * This default runs it under {@link #transact} at once.
   *
   * @param unit the read or claim; no I/O of its own
   * @param <R> the result type
   * @return the unit's result
   * @throws dev.sluice.BackendFailureException if the store failed; nothing was written
   */
  default <R> R transactReadOrClaim(Unit<R> unit) {
    return transact(unit);
  }

  /**
   * Reads one execution's row as last committed: what a unit of {@link #transactReadOrClaim} that
   * only calls {@link WorkflowTransaction#execution} returns, which this default runs. A store may
   * read the row in one statement of its own, without its lock (a row is committed whole), and need
   * not start its transaction for it.
   *
   * @param id the execution's id
   * @return the row, if there is one
   * @throws dev.sluice.BackendFailureException if the store failed
   * @throws dev.sluice.StoreFormatException if the row or the store's schema is unreadable
   */
  default Optional<ExecutionRecord> readExecution(String id) {
    return transactReadOrClaim(tx -> tx.execution(id));
  }

  /**
   * Sets the action to run after a unit of work on this store committed a write, by any session in
   * any process (this one's included), and when an owner of the store may have died, with what the
   * commit changed ({@link Change}). Stores call it from their own threads; spurious calls and more
   * kinds than a commit made are allowed ({@link Change#ALL} when a store cannot tell), missed ones
   * are not.
   *
   * @param onChange a short, non-blocking action, given an immutable, non-empty set
   */
  void onChange(Consumer<Set<Change>> onChange);

  /**
   * Leaves the store: the owner counts as dead from now on. Claims it still holds are taken over by
   * other owners.
   */
  @Override
  void close();

  /**
   * A unit of work.
   *
   * @param <R> the result type
   */
  @FunctionalInterface
  interface Unit<R> {
    /**
     * Does the work.
     *
     * @param tx the rows, valid only during the call
     * @return the result
     */
    R apply(WorkflowTransaction tx);
  }
}
