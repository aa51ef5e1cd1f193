/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ExecutionScan;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The view of a read or a claim while it runs beside other units (under the store's lock taken
 * shared, see {@link dev.sluice.workflow.spi.WorkflowSession#transactReadOrClaim}): it may read,
 * prove owners alive and claim by {@code FOR UPDATE SKIP LOCKED}, which concurrent claims and units
 * of other executions allow. Anything that needs the units before and after it to stand still (a
 * due timer to fire, an owner proven dead to take over, a count of running executions, any other
 * write) throws {@link NeedsStoreLock} before it reads or writes, and the session runs the unit
 * again under the store's exclusive lock. A read of one execution's row is one statement, which
 * sees the last commit of every unit.
 *
 * <p>Not thread-safe; valid only while its unit runs.
 */
final class SharedClaimView implements WorkflowTransaction {
  /** The claim needs the store's exclusive lock: its writes are discarded and it runs again. */
  static final class NeedsStoreLock extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NeedsStoreLock(String why) {
      super("a claim beside other units needs the store's lock: " + why, null, false, false);
    }
  }

  private final WorkflowTransaction tx;

  SharedClaimView(WorkflowTransaction tx) {
    this.tx = tx;
  }

  private static NeedsStoreLock escalate(String why) {
    return new NeedsStoreLock(why);
  }

  @Override
  public long now() {
    return tx.now();
  }

  @Override
  public String ownerId() {
    return tx.ownerId();
  }

  @Override
  public Optional<ExecutionRecord> execution(String id) {
    return tx.execution(id);
  }

  @Override
  public void putExecution(ExecutionRecord execution) {
    throw escalate("it writes execution '" + execution.id() + "'");
  }

  @Override
  public List<ExecutionRecord> claimNext(Set<WorkflowVersion> runnable, int limit) {
    return tx.claimNext(runnable, limit);
  }

  @Override
  public boolean claimLeftMore() {
    return tx.claimLeftMore();
  }

  @Override
  public Set<String> claimOwners(String exceptOwner) {
    return tx.claimOwners(exceptOwner);
  }

  @Override
  public List<ExecutionRecord> runningOf(String owner, int limit) {
    throw escalate("it takes over owner " + owner);
  }

  @Override
  public int runningCount(String workflow) {
    throw escalate("it counts the running executions of '" + workflow + "'");
  }

  @Override
  public List<StepRecord> steps(String executionId) {
    return tx.steps(executionId);
  }

  @Override
  public void putStep(StepRecord step) {
    throw escalate("it writes a step");
  }

  @Override
  public List<TimerRecord> dueTimers(long now, int limit) {
    List<TimerRecord> due = tx.dueTimers(now, limit);
    if (!due.isEmpty()) {
      throw escalate("a timer is due");
    }
    return due;
  }

  @Override
  public OptionalLong nextTimer() {
    return tx.nextTimer();
  }

  @Override
  public void putTimer(TimerRecord timer) {
    throw escalate("it writes a timer");
  }

  @Override
  public void deleteTimer(String executionId) {
    throw escalate("it deletes a timer");
  }

  @Override
  public List<String> finishedBefore(long cutoff, int limit) {
    return tx.finishedBefore(cutoff, limit);
  }

  @Override
  public Optional<DocumentRecord> document(String store, String id) {
    throw escalate("it reads a document");
  }

  @Override
  public void putDocument(DocumentRecord document) {
    throw escalate("it writes a document");
  }

  @Override
  public List<WaiterRecord> waiters(String store, String id) {
    throw escalate("it reads waiters");
  }

  @Override
  public Optional<WaiterRecord> waiter(String executionId) {
    throw escalate("it reads a waiter");
  }

  @Override
  public void putWaiter(WaiterRecord waiter) {
    throw escalate("it writes a waiter");
  }

  @Override
  public void deleteWaiter(String executionId) {
    throw escalate("it deletes a waiter");
  }

  @Override
  public Optional<ReceiptRecord> receipt(String store, String id, String key) {
    throw escalate("it reads a receipt");
  }

  @Override
  public void putReceipt(ReceiptRecord receipt) {
    throw escalate("it writes a receipt");
  }

  @Override
  public int deleteReceiptsBefore(long cutoff, int limit) {
    throw escalate("it deletes receipts");
  }

  @Override
  public void deleteExecution(String id) {
    throw escalate("it deletes execution '" + id + "'");
  }

  @Override
  public boolean ownerDead(String ownerId) {
    if (tx.ownerDead(ownerId)) {
      throw escalate("owner " + ownerId + " is dead");
    }
    return false;
  }

  @Override
  public List<ExecutionRecord> executions(ExecutionScan scan) {
    return tx.executions(scan);
  }

  @Override
  public Map<ExecutionStatus, Long> executionCounts() {
    return tx.executionCounts();
  }

  @Override
  public Optional<TimerRecord> timer(String executionId) {
    return tx.timer(executionId);
  }
}
