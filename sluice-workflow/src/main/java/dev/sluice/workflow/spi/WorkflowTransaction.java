/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The rows of a workflow store inside one unit of work: executions, their step records and their
 * timers, and the documents of durable stores with their waiters and receipts. Reads see the unit's
 * own writes. It has no workflow logic: the runtime decides, in pure functions, what to write. The
 * one rule a store applies itself is which queued executions {@link #claimNext} takes, so that a
 * database can claim in one locking query; {@link ClaimRule} states it for every store.
 *
 * <p>A read that meets a row it cannot map (damaged outside Sluice) throws {@link
 * dev.sluice.StoreFormatException} naming the row, never skips or repairs it; the runtime then
 * fails the execution the row belongs to, where it can, so one damaged row does not stop the
 * others.
 *
 * <p>Valid only during {@link WorkflowSession.Unit#apply}; not thread-safe.
 */
public interface WorkflowTransaction {
  /** Returns the store's time in epoch milliseconds, fixed for the unit of work. */
  long now();

  /** Returns the id of the owner running this unit. */
  String ownerId();

  /**
   * Reads an execution.
   *
   * @param id the execution's id
   * @return the execution, or empty
   */
  Optional<ExecutionRecord> execution(String id);

  /**
   * Inserts an execution or replaces the one with its id.
   *
   * @param execution the row
   */
  void putExecution(ExecutionRecord execution);

  /**
   * Claims up to {@code limit} queued executions for this unit's owner, as one lock-and-fetch: the
   * store finds them with one ordered, limited query and writes each claimed in the same unit.
   *
   * <p><b>The rule</b> (the same for every store; {@link ClaimRule} is it as code): an execution is
   * eligible when it is {@link dev.sluice.workflow.ExecutionStatus#QUEUED}, its workflow and
   * version are in {@code runnable}, and its deadline has not passed ({@link
   * ExecutionRecord#deadlineAt()} {@code > } {@link #now()}: an overdue one is left to its timer,
   * which ends it). Eligible executions are taken in queue order, oldest {@link
   * ExecutionRecord#queuedAt()} first, then by id. Each taken one is written as {@link
   * ExecutionRecord#claimedBy e.claimedBy(ownerId(), now())}: running, held by this owner, with an
   * epoch one above the stored one, so every later write checked against an earlier claim of it is
   * refused.
   *
   * <p><b>Locks.</b> A store whose units run one at a time (SQLite under its gate, memory under its
   * monitor) sees every queued row. A store whose units run concurrently locks the rows it takes
   * until the unit ends and skips rows another open unit has locked rather than waiting for them
   * (PostgreSQL: {@code ORDER BY … LIMIT n FOR UPDATE SKIP LOCKED}), so concurrent claims take
   * different executions, each the oldest eligible one it can have.
   *
   * @param runnable the workflow versions this runtime may run now; empty claims nothing
   * @param limit at most this many; zero or less claims nothing
   * @return the claimed executions as written, in queue order
   */
  List<ExecutionRecord> claimNext(Set<WorkflowVersion> runnable, int limit);

  /**
   * Whether the last {@link #claimNext} of this unit left an eligible execution unclaimed because
   * of its limit. A runtime wakes another worker to claim it only then; otherwise its idle workers
   * sleep until a change gives work, instead of each running a claim that finds nothing. Rows that
   * another open unit had locked and the claim skipped need not count: that unit's commit announces
   * what it leaves claimable. Before any claim of this unit, and in a store that cannot tell, the
   * answer is {@code true}, which costs only a claim that finds nothing.
   *
   * @return whether more eligible executions were left by the last claim's limit
   */
  default boolean claimLeftMore() {
    return true;
  }

  /**
   * Lists the owners other than {@code exceptOwner} that hold claims: of executions that are {@link
   * dev.sluice.workflow.ExecutionStatus#RUNNING}.
   *
   * @param exceptOwner an owner to leave out
   * @return the owners' ids
   */
  Set<String> claimOwners(String exceptOwner);

  /**
   * Lists the executions that are {@link dev.sluice.workflow.ExecutionStatus#RUNNING} under a claim
   * of {@code owner}, by id.
   *
   * @param owner the owner
   * @param limit at most this many
   * @return the executions
   */
  List<ExecutionRecord> runningOf(String owner, int limit);

  /**
   * Counts the executions of a workflow that are {@link
   * dev.sluice.workflow.ExecutionStatus#RUNNING}, whoever holds them.
   *
   * @param workflow the workflow's name
   * @return how many
   */
  int runningCount(String workflow);

  /**
   * Reads an execution's step records, by position.
   *
   * @param executionId the execution's id
   * @return the steps, positions 0, 1, 2, … in order
   */
  List<StepRecord> steps(String executionId);

  /**
   * Inserts a step record or replaces the one at its execution and position.
   *
   * @param step the row
   */
  void putStep(StepRecord step);

  /**
   * Lists timers due at {@code now}, earliest first.
   *
   * @param now the store's time
   * @param limit at most this many
   * @return the timers whose {@link TimerRecord#dueAt()} is at most {@code now}
   */
  List<TimerRecord> dueTimers(long now, int limit);

  /** Returns the earliest due time of any timer, or empty if there is none. */
  OptionalLong nextTimer();

  /**
   * Inserts a timer or replaces the execution's timer (an execution has at most one).
   *
   * @param timer the row
   */
  void putTimer(TimerRecord timer);

  /**
   * Deletes an execution's timer, if it has one.
   *
   * @param executionId the execution's id
   */
  void deleteTimer(String executionId);

  /**
   * Lists finished executions last updated before {@code cutoff}, oldest first.
   *
   * @param cutoff the store time
   * @param limit at most this many
   * @return their ids
   */
  List<String> finishedBefore(long cutoff, int limit);

  /**
   * Reads a durable store's document.
   *
   * @param store the durable store's name
   * @param id the document's id
   * @return the document, or empty if it was never written
   */
  Optional<DocumentRecord> document(String store, String id);

  /**
   * Inserts a document or replaces the one with its store and id.
   *
   * @param document the row
   */
  void putDocument(DocumentRecord document);

  /**
   * Lists the executions waiting on a document, by execution id.
   *
   * @param store the durable store's name
   * @param id the document's id
   * @return the waiters
   */
  List<WaiterRecord> waiters(String store, String id);

  /**
   * Reads an execution's waiter.
   *
   * @param executionId the execution's id
   * @return the waiter, or empty if the execution waits on no document
   */
  Optional<WaiterRecord> waiter(String executionId);

  /**
   * Inserts a waiter or replaces the execution's waiter (an execution has at most one).
   *
   * @param waiter the row
   */
  void putWaiter(WaiterRecord waiter);

  /**
   * Deletes an execution's waiter, if it has one.
   *
   * @param executionId the execution's id
   */
  void deleteWaiter(String executionId);

  /**
   * Reads the receipt of an update with an idempotency key.
   *
   * @param store the durable store's name
   * @param id the document's id
   * @param key the idempotency key
   * @return the receipt, or empty if no update with this key was applied
   */
  Optional<ReceiptRecord> receipt(String store, String id, String key);

  /**
   * Inserts a receipt; a store, document and key have at most one.
   *
   * @param receipt the row
   */
  void putReceipt(ReceiptRecord receipt);

  /**
   * Deletes up to {@code limit} receipts recorded before {@code cutoff}, oldest first.
   *
   * @param cutoff the store time
   * @param limit at most this many
   * @return how many were deleted
   */
  int deleteReceiptsBefore(long cutoff, int limit);

  /**
   * Deletes an execution with its steps, timer and waiter.
   *
   * @param id the execution's id
   */
  void deleteExecution(String id);

  /**
   * Whether an owner is proven dead: its session closed, or its process gone (SQLite: its lifetime
   * lock can be taken; PostgreSQL: its advisory lock is free). A live owner, or one whose death
   * cannot be proven yet, is not dead.
   *
   * @param ownerId an owner's id
   * @return true only with proof
   */
  boolean ownerDead(String ownerId);

  /**
   * Lists executions for inspection, in {@link ExecutionScan#ORDER}: those {@link
   * ExecutionScan#includes} takes, at most {@link ExecutionScan#limit()}. Reads only.
   *
   * @param scan which executions, from where
   * @return the executions, newest first
   */
  List<ExecutionRecord> executions(ExecutionScan scan);

  /**
   * Counts the executions by status, for inspection. Reads only.
   *
   * @return how many executions have each status; a status no execution has may be absent
   */
  java.util.Map<dev.sluice.workflow.ExecutionStatus, Long> executionCounts();

  /**
   * Reads an execution's timer, for inspection.
   *
   * @param executionId the execution's id
   * @return its timer, or empty if it has none
   */
  Optional<TimerRecord> timer(String executionId);
}
