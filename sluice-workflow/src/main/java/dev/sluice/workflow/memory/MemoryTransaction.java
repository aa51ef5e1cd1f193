/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.memory;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.Change;
import dev.sluice.workflow.spi.ClaimRule;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * One unit of work on the in-memory rows, run under the store's monitor. Writes go straight to the
 * maps and push an undo action, so a unit that throws is rolled back to where it began.
 */
final class MemoryTransaction implements WorkflowTransaction {
  private final MemoryData data;
  private final long now;
  private final String ownerId;
  private final Deque<Runnable> undo = new ArrayDeque<>();
  private final EnumSet<Change> changes = EnumSet.noneOf(Change.class);
  private boolean active = true;
  private boolean claimLeftMore = true;

  MemoryTransaction(MemoryData data, long now, String ownerId) {
    this.data = data;
    this.now = now;
    this.ownerId = ownerId;
  }

  /** What the unit changed; empty if it wrote nothing. */
  Set<Change> changes() {
    return changes;
  }

  void rollback() {
    changes.clear();
    while (!undo.isEmpty()) {
      undo.pop().run();
    }
  }

  void end() {
    active = false;
  }

  private void check() {
    if (!active) {
      throw new IllegalStateException("the unit of work has ended");
    }
  }

  private <K, V> void put(Map<K, V> map, K key, V value) {
    put(map, key, value, Change.PROGRESS);
  }

  private <K, V> void put(Map<K, V> map, K key, V value, Change change) {
    changes.add(change);
    V previous = value == null ? map.remove(key) : map.put(key, value);
    undo.push(
        () -> {
          if (previous == null) {
            map.remove(key);
          } else {
            map.put(key, previous);
          }
        });
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public Optional<ExecutionRecord> execution(String id) {
    check();
    return Optional.ofNullable(data.executions.get(id));
  }

  @Override
  public void putExecution(ExecutionRecord execution) {
    check();
    put(data.executions, execution.id(), execution, Change.ofExecution(execution, ownerId));
  }

  @Override
  public List<ExecutionRecord> claimNext(Set<WorkflowVersion> runnable, int limit) {
    check();
    if (runnable.isEmpty() || limit <= 0) {
      return List.of();
    }
    List<ExecutionRecord> eligible =
        data.executions.values().stream()
            .filter(e -> ClaimRule.eligible(e, runnable, now))
            .sorted(ClaimRule.ORDER)
            .limit(limit + 1L)
            .toList();
    claimLeftMore = eligible.size() > limit;
    List<ExecutionRecord> claimed =
        eligible.stream().limit(limit).map(e -> e.claimedBy(ownerId, now)).toList();
    claimed.forEach(this::putExecution);
    return claimed;
  }

  @Override
  public boolean claimLeftMore() {
    check();
    return claimLeftMore;
  }

  @Override
  public Set<String> claimOwners(String exceptOwner) {
    check();
    return data.executions.values().stream()
        .filter(e -> e.status() == ExecutionStatus.RUNNING && !exceptOwner.equals(e.claimOwner()))
        .map(ExecutionRecord::claimOwner)
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }

  @Override
  public int runningCount(String workflow) {
    check();
    return (int)
        data.executions.values().stream()
            .filter(e -> e.status() == ExecutionStatus.RUNNING && e.workflow().equals(workflow))
            .count();
  }

  @Override
  public List<ExecutionRecord> runningOf(String owner, int limit) {
    check();
    return data.executions.values().stream()
        .filter(e -> e.status() == ExecutionStatus.RUNNING && owner.equals(e.claimOwner()))
        .sorted(Comparator.comparing(ExecutionRecord::id))
        .limit(limit)
        .toList();
  }

  @Override
  public List<StepRecord> steps(String executionId) {
    check();
    TreeMap<Integer, StepRecord> m = data.steps.get(executionId);
    return m == null ? List.of() : new ArrayList<>(m.values());
  }

  @Override
  public void putStep(StepRecord step) {
    check();
    TreeMap<Integer, StepRecord> m =
        data.steps.computeIfAbsent(step.executionId(), k -> new TreeMap<>());
    put(m, step.position(), step);
  }

  @Override
  public List<TimerRecord> dueTimers(long now, int limit) {
    check();
    return data.timers.values().stream()
        .filter(t -> t.dueAt() <= now)
        .sorted(
            Comparator.comparingLong(TimerRecord::dueAt).thenComparing(TimerRecord::executionId))
        .limit(limit)
        .toList();
  }

  @Override
  public OptionalLong nextTimer() {
    check();
    return data.timers.values().stream().mapToLong(TimerRecord::dueAt).min();
  }

  @Override
  public void putTimer(TimerRecord timer) {
    check();
    put(data.timers, timer.executionId(), timer, Change.WORK);
  }

  @Override
  public void deleteTimer(String executionId) {
    check();
    if (data.timers.containsKey(executionId)) {
      put(data.timers, executionId, null);
    }
  }

  @Override
  public List<String> finishedBefore(long cutoff, int limit) {
    check();
    return data.executions.values().stream()
        .filter(e -> e.status().isTerminal() && e.updatedAt() < cutoff)
        .sorted(
            Comparator.comparingLong(ExecutionRecord::updatedAt).thenComparing(ExecutionRecord::id))
        .limit(limit)
        .map(ExecutionRecord::id)
        .toList();
  }

  @Override
  public Optional<DocumentRecord> document(String store, String id) {
    check();
    return Optional.ofNullable(data.documents.get(List.of(store, id)));
  }

  @Override
  public void putDocument(DocumentRecord document) {
    check();
    put(data.documents, List.of(document.store(), document.id()), document);
  }

  @Override
  public List<WaiterRecord> waiters(String store, String id) {
    check();
    return data.waiters.values().stream()
        .filter(w -> w.store().equals(store) && w.documentId().equals(id))
        .sorted(Comparator.comparing(WaiterRecord::executionId))
        .toList();
  }

  @Override
  public Optional<WaiterRecord> waiter(String executionId) {
    check();
    return Optional.ofNullable(data.waiters.get(executionId));
  }

  @Override
  public void putWaiter(WaiterRecord waiter) {
    check();
    put(data.waiters, waiter.executionId(), waiter);
  }

  @Override
  public void deleteWaiter(String executionId) {
    check();
    if (data.waiters.containsKey(executionId)) {
      put(data.waiters, executionId, null);
    }
  }

  @Override
  public Optional<ReceiptRecord> receipt(String store, String id, String key) {
    check();
    return Optional.ofNullable(data.receipts.get(List.of(store, id, key)));
  }

  @Override
  public void putReceipt(ReceiptRecord receipt) {
    check();
    put(data.receipts, List.of(receipt.store(), receipt.documentId(), receipt.key()), receipt);
  }

  @Override
  public int deleteReceiptsBefore(long cutoff, int limit) {
    check();
    List<ReceiptRecord> old =
        data.receipts.values().stream()
            .filter(r -> r.recordedAt() < cutoff)
            .sorted(Comparator.comparingLong(ReceiptRecord::recordedAt))
            .limit(limit)
            .toList();
    for (ReceiptRecord r : old) {
      put(data.receipts, List.of(r.store(), r.documentId(), r.key()), null);
    }
    return old.size();
  }

  @Override
  public void deleteExecution(String id) {
    check();
    deleteTimer(id);
    deleteWaiter(id);
    TreeMap<Integer, StepRecord> m = data.steps.get(id);
    if (m != null) {
      put(data.steps, id, null);
    }
    if (data.executions.containsKey(id)) {
      put(data.executions, id, null);
    }
  }

  @Override
  public boolean ownerDead(String ownerId) {
    check();
    return !data.isOpen(ownerId);
  }

  @Override
  public List<ExecutionRecord> executions(dev.sluice.workflow.spi.ExecutionScan scan) {
    check();
    return data.executions.values().stream()
        .filter(scan::includes)
        .sorted(dev.sluice.workflow.spi.ExecutionScan.ORDER)
        .limit(scan.limit())
        .toList();
  }

  @Override
  public Map<ExecutionStatus, Long> executionCounts() {
    check();
    Map<ExecutionStatus, Long> counts = new java.util.EnumMap<>(ExecutionStatus.class);
    data.executions.values().forEach(e -> counts.merge(e.status(), 1L, Long::sum));
    return counts;
  }

  @Override
  public Optional<TimerRecord> timer(String executionId) {
    check();
    return Optional.ofNullable(data.timers.get(executionId));
  }
}
