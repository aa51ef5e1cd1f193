/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.StoreFormatException;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.internal.Claims.Claim;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.FailureRecord;
import dev.sluice.workflow.spi.StepRecord;
import dev.sluice.workflow.spi.TimerRecord;
import dev.sluice.workflow.spi.WorkflowTransaction;
import dev.sluice.workflow.spi.WorkflowVersion;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

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
  sealed interface ClaimResult {
    /** Whether a finished execution is past its retention: a purge batch is due. */
    boolean purgeDue();
  }

  /**
   * An execution to run, with its recorded steps.
   *
   * @param execution the claimed execution
   * @param steps its recorded steps
   * @param purgeDue whether a purge batch is due
   * @param thenIdle what a claim right after this one would find, if this one took the last
   *     execution the store could give this runtime; empty if more may be claimable
   */
  record Claimed(
      ExecutionRecord execution, List<StepRecord> steps, boolean purgeDue, Optional<Idle> thenIdle)
      implements ClaimResult {}

  /**
   * The execution picked had a step row the store cannot read: it was failed with that error
   * instead of claimed, so one damaged row stops one execution, not every claim after it.
   */
  record Unreadable(ExecutionRecord execution, StoreFormatException error, boolean purgeDue)
      implements ClaimResult {}

  /**
   * Nothing to run now.
   *
   * @param nextTimer the earliest durable timer (sleeps, retries, deadlines), if any
   * @param purgeAt when the oldest finished execution passes its retention, {@link Long#MAX_VALUE}
   *     if none
   * @param purgeDue whether that moment has come
   */
  record Idle(OptionalLong nextTimer, long purgeAt, boolean purgeDue) implements ClaimResult {
    /** The earliest moment something is due: a timer or a purge. */
    OptionalLong nextWake() {
      long t = nextTimer.orElse(Long.MAX_VALUE);
      long at = Math.min(t, purgeAt);
      return at == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(at);
    }
  }

  /**
   * What a runtime may run, asked inside a claim: the versions it can run now, and a reservation of
   * a run for the execution it claimed.
   */
  interface Runnables {
    /** The registered versions of the workflows whose limits in this runtime leave room now. */
    Set<WorkflowVersion> now();

    /**
     * Reserves a run of the claimed execution's workflow in this runtime; false if its limit was
     * reached since {@link #now()} (another worker of the runtime took the last run).
     */
    boolean tryReserve(ExecutionRecord claimed);
  }

  /**
   * Another worker of this runtime took the last run of a workflow between the claim's choice and
   * its reservation: the unit throws it, so the store keeps none of its writes, and the worker
   * claims again at once.
   */
  static final class LostReservation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LostReservation(String workflow) {
      super(
          "the last run of workflow '" + workflow + "' in this runtime was taken",
          null,
          false,
          false);
    }
  }

  /**
   * Fires due timers (queueing woken executions, ending overdue ones), takes over the claims of
   * owners proven dead, then claims the first queued execution of a version {@code runnable} can
   * run now, by the store's {@link WorkflowTransaction#claimNext} rule, passing over workflows
   * whose store-wide limit in {@code globalLimits} is reached (as many of their executions are
   * running, counted after the take-overs). It also reports whether, and when, a finished execution
   * passes the retention of {@code retentionMillis}: one indexed read of the oldest finished
   * execution.
   *
   * @throws LostReservation if the claimed execution's run could not be reserved; nothing is kept
   */
  static ClaimResult claim(
      WorkflowTransaction tx,
      Runnables runnable,
      long retentionMillis,
      Map<String, Integer> globalLimits) {
    return claim(tx, runnable, retentionMillis, globalLimits, new PurgeFloor());
  }

  /**
   * A store time before which no finished execution of the store passes a runtime's retention, kept
   * across the runtime's claims so that they need not read the oldest finished execution each time:
   * executions that finish later are stamped later, and one deleted only moves the moment later, so
   * a floor read once stays a lower bound (the oldest finished execution's moment). Thread-safe.
   */
  static final class PurgeFloor {
    private volatile long at = Long.MIN_VALUE;
  }

  /**
   * Like {@link #claim(WorkflowTransaction, Runnables, long, Map)}, but before the store time in
   * {@code floor} it takes the floor as the moment a purge is due instead of reading the oldest
   * finished execution (two reads saved in most claims), and it moves the floor when it reads.
   */
  static ClaimResult claim(
      WorkflowTransaction tx,
      Runnables runnable,
      long retentionMillis,
      Map<String, Integer> globalLimits,
      PurgeFloor floor) {
    long now = tx.now();
    fireDueTimers(tx, now);
    // By owner, not by row: however many claims live owners hold, a dead one's are found.
    for (String owner : tx.claimOwners(tx.ownerId())) {
      if (tx.ownerDead(owner)) {
        for (ExecutionRecord r : tx.runningOf(owner, BATCH)) {
          // A waiter it wrote before dying goes too: the next run tests its condition afresh.
          tx.deleteWaiter(r.id());
          tx.putExecution(Claims.takeOver(r, now));
        }
      }
    }
    long purgeAt = floor.at;
    if (now >= purgeAt) {
      purgeAt = purgeableAt(tx, retentionMillis);
      // None finished: nothing to keep, the next claim reads again.
      floor.at = purgeAt != Long.MAX_VALUE ? purgeAt : Long.MIN_VALUE;
    }
    boolean purgeDue = purgeAt <= now;
    Set<WorkflowVersion> versions = underGlobalLimits(tx, runnable.now(), globalLimits);
    List<ExecutionRecord> next = tx.claimNext(versions, 1);
    if (next.isEmpty()) {
      return new Idle(tx.nextTimer(), purgeAt, purgeDue);
    }
    ExecutionRecord claimed = next.get(0);
    if (!runnable.tryReserve(claimed)) {
      throw new LostReservation(claimed.workflow());
    }
    List<StepRecord> steps;
    try {
      steps = tx.steps(claimed.id());
    } catch (StoreFormatException unreadable) {
      tx.deleteTimer(claimed.id());
      tx.deleteWaiter(claimed.id());
      tx.putExecution(claimed.finished(ExecutionStatus.FAILED, null, Failures.of(unreadable), now));
      return new Unreadable(claimed, unreadable, purgeDue);
    }
    // The claim's limit left nothing: the next claim would be idle, and its timer is read now (a
    // store that reads ahead has it already).
    Optional<Idle> thenIdle =
        tx.claimLeftMore()
            ? Optional.empty()
            : Optional.of(new Idle(tx.nextTimer(), purgeAt, purgeDue));
    return new Claimed(claimed, steps, purgeDue, thenIdle);
  }

  private static void fireDueTimers(WorkflowTransaction tx, long now) {
    for (TimerRecord t : tx.dueTimers(now, BATCH)) {
      Optional<ExecutionRecord> timed;
      try {
        timed = tx.execution(t.executionId());
      } catch (StoreFormatException unreadable) {
        // Nothing can be done with a row the store cannot read; its timer must not block every
        // claim. The row stays as it is for whoever repairs it; reading it reports the damage.
        tx.deleteTimer(t.executionId());
        continue;
      }
      Claims.Fired f = Claims.fire(timed, t, now);
      f.write().ifPresent(tx::putExecution);
      if (f.write().isPresent() && f.write().get().status().isTerminal()) {
        tx.deleteWaiter(t.executionId());
      }
      if (f.nextTimer().isPresent()) {
        tx.putTimer(new TimerRecord(t.executionId(), f.nextTimer().getAsLong()));
      } else {
        tx.deleteTimer(t.executionId());
      }
    }
  }

  /** The versions left after dropping workflows with as many running as their store-wide limit. */
  private static Set<WorkflowVersion> underGlobalLimits(
      WorkflowTransaction tx, Set<WorkflowVersion> versions, Map<String, Integer> globalLimits) {
    if (globalLimits.isEmpty()) {
      return versions;
    }
    Map<String, Boolean> full = new HashMap<>();
    Set<WorkflowVersion> out = new HashSet<>();
    for (WorkflowVersion v : versions) {
      Integer limit = globalLimits.get(v.workflow());
      if (limit == null || !full.computeIfAbsent(v.workflow(), w -> tx.runningCount(w) >= limit)) {
        out.add(v);
      }
    }
    return out;
  }

  /** When the oldest finished execution passes a retention of {@code retentionMillis}. */
  static long purgeableAt(WorkflowTransaction tx, long retentionMillis) {
    List<String> oldest = tx.finishedBefore(Long.MAX_VALUE, 1);
    if (oldest.isEmpty()) {
      return Long.MAX_VALUE;
    }
    return Claims.purgeableAt(tx.execution(oldest.get(0)), retentionMillis);
  }

  private static void endOverdue(WorkflowTransaction tx, ExecutionRecord e) {
    tx.deleteTimer(e.id());
    tx.deleteWaiter(e.id());
    tx.putExecution(Claims.timedOut(e, tx.now()));
  }

  /**
   * The execution if {@code claim} still holds it. An execution whose deadline passed is ended here
   * ({@link dev.sluice.workflow.ExecutionStatus#TIMED_OUT}) and not returned, so nothing a worker
   * finishes after the deadline is recorded, even if no timer fired yet.
   */
  static Optional<ExecutionRecord> held(WorkflowTransaction tx, Claim claim) {
    Optional<ExecutionRecord> e = tx.execution(claim.executionId());
    if (e.isPresent() && Claims.overdue(e.get(), tx.now())) {
      endOverdue(tx, e.get());
      return Optional.empty();
    }
    return e.filter(r -> Claims.holds(r, claim));
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
   * timer (due at its deadline instead if that comes first), and leaves the execution waiting,
   * unclaimed. False if the claim was lost.
   */
  static boolean suspend(WorkflowTransaction tx, Claim claim, StepRecord step, long dueAt) {
    Optional<ExecutionRecord> e = held(tx, claim);
    if (e.isEmpty()) {
      return false;
    }
    if (step != null) {
      tx.putStep(step);
    }
    tx.putTimer(new TimerRecord(claim.executionId(), Claims.timerDue(e.get(), dueAt)));
    tx.putExecution(e.get().unclaimed(ExecutionStatus.WAITING, tx.now()));
    return true;
  }

  /**
   * Suspends a claimed execution whose store condition was false: it waits, unclaimed, if its
   * waiter is still there; if a change woke it (deleted the waiter) after the test, it is queued
   * again at once. False if the claim was lost.
   */
  static boolean park(WorkflowTransaction tx, Claim claim) {
    Optional<ExecutionRecord> e = held(tx, claim);
    if (e.isEmpty()) {
      return false;
    }
    boolean waits = tx.waiter(claim.executionId()).isPresent();
    tx.putExecution(
        e.get().unclaimed(waits ? ExecutionStatus.WAITING : ExecutionStatus.QUEUED, tx.now()));
    return true;
  }

  /** Puts a claimed execution back in the queue (its worker is stopping). */
  static boolean release(WorkflowTransaction tx, Claim claim) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(r -> tx.putExecution(r.unclaimed(ExecutionStatus.QUEUED, tx.now())));
    return e.isPresent();
  }

  /**
   * Completes a claimed execution with an encoded output, recording its last step first if the run
   * left one unwritten ({@code last}, or null).
   */
  static boolean complete(WorkflowTransaction tx, Claim claim, StepRecord last, String output) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(
        r -> {
          if (last != null) {
            tx.putStep(last);
          }
          tx.deleteTimer(r.id());
          tx.deleteWaiter(r.id());
          tx.putExecution(r.finished(ExecutionStatus.COMPLETED, output, null, tx.now()));
        });
    return e.isPresent();
  }

  /**
   * Fails a claimed execution, recording its last step first if the run left one unwritten ({@code
   * last}, or null).
   */
  static boolean fail(WorkflowTransaction tx, Claim claim, StepRecord last, FailureRecord failure) {
    Optional<ExecutionRecord> e = held(tx, claim);
    e.ifPresent(
        r -> {
          if (last != null) {
            tx.putStep(last);
          }
          tx.deleteTimer(r.id());
          tx.deleteWaiter(r.id());
          tx.putExecution(r.finished(ExecutionStatus.FAILED, null, failure, tx.now()));
        });
    return e.isPresent();
  }

  /** Cancels an unfinished execution, whoever holds it; false if it finished or does not exist. */
  static boolean cancel(WorkflowTransaction tx, String id) {
    Optional<ExecutionRecord> e = tx.execution(id).filter(r -> !r.status().isTerminal());
    e.ifPresent(
        r -> {
          tx.deleteTimer(id);
          tx.deleteWaiter(id);
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
    // Receipts of idempotent store updates age out with the executions: a delivery repeated after
    // the retention is applied again.
    tx.deleteReceiptsBefore(cutoff, limit);
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

  /**
   * Submits an execution, idempotently per id; a new one with an execution timeout ({@code
   * timeoutMillis} above zero) gets a timer at its deadline.
   */
  static Claims.SubmitDecision submit(
      WorkflowTransaction tx,
      String id,
      String workflow,
      int version,
      String input,
      long timeoutMillis,
      String carried) {
    Claims.SubmitDecision d =
        Claims.submit(tx.execution(id), id, workflow, version, input, tx.now(), timeoutMillis);
    if (d instanceof Claims.Create c) {
      tx.putExecution(c.execution());
      if (carried != null) {
        tx.putStep(StepObserver.contextStep(id, carried, tx.now()));
      }
      if (c.execution().hasDeadline()) {
        tx.putTimer(new TimerRecord(id, c.execution().deadlineAt()));
      }
    }
    return d;
  }
}
