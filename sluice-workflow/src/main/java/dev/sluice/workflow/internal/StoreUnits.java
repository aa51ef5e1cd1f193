/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.spi.DocumentRecord;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.ReceiptRecord;
import dev.sluice.workflow.spi.StepKind;
import dev.sluice.workflow.spi.StepOutcome;
import dev.sluice.workflow.spi.StepOutcome.Snapshot;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.WaiterRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The units of work of durable stores. A workflow's store step checks the claim, reads or changes
 * the document and records the step in one unit, so the step record is the change's receipt: a
 * change is applied exactly when its step is recorded. A change queues again, in the same unit, the
 * waiting executions whose watched paths it touched, so a wake cannot be lost or come apart from
 * its change. Updaters and conditions arrive as functions over encoded states; what they throw is
 * returned, never thrown, so the unit decides what to write.
 */
final class StoreUnits {
  private StoreUnits() {}

  /** What a workflow's store step did. */
  sealed interface Result {}

  /** Recorded the step with this snapshot. */
  record Done(Snapshot snapshot) implements Result {}

  /** Recorded the step as failed: the updater or condition threw. */
  record Failed(FailureRecord failure) implements Result {}

  /** The condition is false: the execution's waiter is written; it is still claimed. */
  record Parked() implements Result {}

  /** The claim was lost: nothing was written. */
  record Lost() implements Result {}

  /** A document's id within its store, and its state before it was ever written. */
  record Document(String store, String id, String initial) {}

  /** Where a store step is recorded: its execution, position, key and kind. */
  record Step(String executionId, int position, String key, StepKind kind) {
    StepRecord with(StepOutcome outcome, long now) {
      return new StepRecord(executionId, position, key, kind, outcome, now);
    }
  }

  /** The document as stored now. */
  static Snapshot current(WorkflowTransaction tx, Document d) {
    return tx.document(d.store(), d.id())
        .map(r -> new Snapshot(d.store(), d.id(), r.version(), r.state()))
        .orElseGet(() -> new Snapshot(d.store(), d.id(), 0, d.initial()));
  }

  /**
   * Writes {@code after} as the document's new state unless it is unchanged, and queues again the
   * waiters that see a touched path.
   *
   * @return the document after the change
   */
  static Snapshot change(WorkflowTransaction tx, Document d, Snapshot before, String after) {
    List<String> touched = DocumentPaths.changed(before.state(), after);
    if (touched.isEmpty()) {
      return before;
    }
    long version = before.version() + 1;
    tx.putDocument(new DocumentRecord(d.store(), d.id(), version, after, tx.now()));
    for (WaiterRecord w : tx.waiters(d.store(), d.id())) {
      if (w.sinceVersion() < version && DocumentPaths.seen(w.paths(), touched)) {
        wake(tx, w);
      }
    }
    return new Snapshot(d.store(), d.id(), version, after);
  }

  /**
   * Deletes a waiter and queues its execution again if it waits; one still running (between its
   * test of the condition and its suspension) finds its waiter gone and is queued by {@link
   * Units#park}.
   */
  private static void wake(WorkflowTransaction tx, WaiterRecord w) {
    tx.deleteWaiter(w.executionId());
    tx.execution(w.executionId())
        .filter(e -> e.status() == ExecutionStatus.WAITING)
        .ifPresent(e -> tx.putExecution(e.unclaimed(ExecutionStatus.QUEUED, tx.now())));
  }

  /** A workflow's {@code get}: records the document as it is. */
  static Result get(WorkflowTransaction tx, Claim claim, Step at, Document d) {
    if (Units.held(tx, claim).isEmpty()) {
      return new Lost();
    }
    Snapshot now = current(tx, d);
    tx.putStep(at.with(now, tx.now()));
    return new Done(now);
  }

  /** A workflow's {@code update}: changes the document and records the step with the change. */
  static Result update(
      WorkflowTransaction tx, Claim claim, Step at, Document d, UnaryOperator<String> fn) {
    if (Units.held(tx, claim).isEmpty()) {
      return new Lost();
    }
    Snapshot before = current(tx, d);
    String after;
    try {
      after = fn.apply(before.state());
    } catch (RuntimeException e) {
      return failed(tx, at, e);
    }
    Snapshot done = change(tx, d, before, after);
    tx.putStep(at.with(done, tx.now()));
    return new Done(done);
  }

  /**
   * A workflow's {@code awaitCondition}: records the document if the condition holds, else writes
   * the execution's waiter at the version it was tested on.
   */
  static Result await(
      WorkflowTransaction tx,
      Claim claim,
      Step at,
      Document d,
      List<String> paths,
      Predicate<String> condition) {
    if (Units.held(tx, claim).isEmpty()) {
      return new Lost();
    }
    Snapshot now = current(tx, d);
    boolean holds;
    try {
      holds = condition.test(now.state());
    } catch (RuntimeException e) {
      return failed(tx, at, e);
    }
    if (holds) {
      tx.deleteWaiter(claim.executionId());
      tx.putStep(at.with(now, tx.now()));
      return new Done(now);
    }
    tx.putWaiter(
        new WaiterRecord(claim.executionId(), at.key(), d.store(), d.id(), paths, now.version()));
    return new Parked();
  }

  /** What a change from outside workflows did. */
  sealed interface External {}

  /** Changed (or found the receipt of an earlier change with the key). */
  record Changed(Snapshot snapshot) implements External {}

  /** The updater threw: nothing was written. */
  record Threw(RuntimeException failure) implements External {}

  /**
   * A change from outside workflows, at most once per {@code key} if one is given: the receipt is
   * written with the change.
   */
  static External updateFromOutside(
      WorkflowTransaction tx, Document d, String key, UnaryOperator<String> fn) {
    if (key != null) {
      var receipt = tx.receipt(d.store(), d.id(), key);
      if (receipt.isPresent()) {
        return new Changed(
            new Snapshot(d.store(), d.id(), receipt.get().version(), receipt.get().state()));
      }
    }
    Snapshot before = current(tx, d);
    String after;
    try {
      after = fn.apply(before.state());
    } catch (RuntimeException e) {
      return new Threw(e);
    }
    Snapshot done = change(tx, d, before, after);
    if (key != null) {
      tx.putReceipt(
          new ReceiptRecord(d.store(), d.id(), key, done.version(), done.state(), tx.now()));
    }
    return new Changed(done);
  }

  private static Failed failed(WorkflowTransaction tx, Step at, RuntimeException e) {
    FailureRecord f = Failures.of(e);
    tx.putStep(at.with(new StepOutcome.Failed(f, 1), tx.now()));
    return new Failed(f);
  }
}
