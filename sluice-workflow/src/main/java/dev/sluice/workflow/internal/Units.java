/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The runtime's units of work: each reads rows through a {@link WorkflowTransaction}, decides with
 * {@link Claims} and {@link Replay}, and writes the result. A store runs each one atomically.
 * Writes of a running execution check its claim first, so a worker whose claim was superseded
 * (taken over after its owner was proven dead, or cancelled) changes nothing.
 */
final class Units {
  /** How many due timers, dead claims and queued candidates one claim looks at. */
  static final int BATCH = 64;

  private Units() {}

  /** What a claim found. */
  sealed interface ClaimResult {}

  /** An execution to run, with its recorded steps. */
  record Claimed(ExecutionRecord execution, List<StepRecord> steps) implements ClaimResult {}

  /** Nothing to run now; the earliest timer, if any, is when to look again. */
  record Idle(OptionalLong nextTimer) implements ClaimResult {}

  /**
   * Fires due timers, takes over the claims of owners proven dead, then claims the first queued
   * execution {@code runnable} accepts.
   */
  static ClaimResult claim(
      WorkflowTransaction tx, Set<String> workflows, Predicate<ExecutionRecord> runnable) {
    long now = tx.now();
    for (TimerRecord t : tx.dueTimers(now, BATCH)) {
      Claims.fire(tx.execution(t.executionId()), t, now).ifPresent(tx::putExecution);
      tx.deleteTimer(t.executionId());
    }
    for (ExecutionRecord r : tx.runningElsewhere(tx.ownerId(), BATCH)) {
      if (tx.ownerDead(r.claimOwner())) {
        tx.putExecution(Claims.takeOver(r, now));
      }
    }
    if (!workflows.isEmpty()) {
      Optional<ExecutionRecord> next = Claims.pick(tx.queued(workflows, BATCH), runnable);
      if (next.isPresent()) {
        ExecutionRecord claimed = next.get().claimedBy(tx.ownerId(), now);
        tx.putExecution(claimed);
        return new Claimed(claimed, tx.steps(claimed.id()));
      }
    }
    return new Idle(tx.nextTimer());
  }

  private static Optional<ExecutionRecord> held(WorkflowTransaction tx, Claim claim) {
    return tx.execution(claim.executionId()).filter(e -> Claims.holds(e, claim));
  }

  /** Records a step of a claimed execution; false if the claim was lost. */
  static boolean record(WorkflowTransaction tx, Claim claim, StepRecord step) {
    if (held(tx, claim).isEmpty()) {
      return false;
    }
    tx.putStep(step);
    return true;
  }

  /**
   * Suspends a claimed execution until {@code dueAt}: records {@code step} if given, writes the
   * timer, and leaves the execution waiting, unclaimed. False if the claim was lost.
   */
  static boolean suspend(WorkflowTransaction tx, Claim claim, StepRecord step, long dueAt) {
    Optional<ExecutionRecord> e = held(tx, claim);
    if (e.isEmpty()) {
      return false;
    }
    if (step != null) {
      tx.putStep(step);
    }
    tx.putTimer(new TimerRecord(claim.executionId(), dueAt));
    tx.putExecution(e.get().unclaimed(ExecutionStatus.WAITING, tx.now()));
    return true;
  }

  /** Puts a claimed execution back in the queue (its worker is stopping). */
  static boolean release(WorkflowTransaction tx, Claim claim) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(r -> tx.putExecution(r.unclaimed(ExecutionStatus.QUEUED, tx.now())));
    return e.isPresent();
  }

  /** Completes a claimed execution with an encoded output. */
  static boolean complete(WorkflowTransaction tx, Claim claim, String output) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(
        r -> tx.putExecution(r.finished(ExecutionStatus.COMPLETED, output, null, tx.now())));
    return e.isPresent();
  }

  /** Fails a claimed execution. */
  static boolean fail(WorkflowTransaction tx, Claim claim, FailureRecord failure) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(r -> tx.putExecution(r.finished(ExecutionStatus.FAILED, null, failure, tx.now())));
    return e.isPresent();
  }

  /** Cancels an unfinished execution, whoever holds it; false if it finished or does not exist. */
  static boolean cancel(WorkflowTransaction tx, String id) {
    Optional<ExecutionRecord> e = tx.execution(id).filter(r -> !r.status().isTerminal());
    e.ifPresent(
        r -> {
          tx.deleteTimer(id);
          tx.putExecution(r.finished(ExecutionStatus.CANCELLED, null, null, tx.now()));
        });
    return e.isPresent();
  }

  /**
   * Deletes up to {@code limit} executions that finished more than {@code olderThanMillis} before
   * the store's time; returns how many.
   */
  static int purge(WorkflowTransaction tx, long olderThanMillis, int limit) {
    long cutoff = tx.now() - olderThanMillis;
    int n = 0;
    for (String id : tx.finishedBefore(cutoff, limit)) {
      Optional<ExecutionRecord> e = tx.execution(id);
      if (e.isPresent() && Claims.expired(e.get(), cutoff)) {
        tx.deleteExecution(id);
        n++;
      }
    }
    return n;
  }

  /** Submits an execution, idempotently per id. */
  static Claims.SubmitDecision submit(
      WorkflowTransaction tx, String id, String workflow, int version, String input) {
    Claims.SubmitDecision d =
        Claims.submit(tx.execution(id), id, workflow, version, input, tx.now());
    if (d instanceof Claims.Create c) {
      tx.putExecution(c.execution());
    }
    return d;
  }
}
