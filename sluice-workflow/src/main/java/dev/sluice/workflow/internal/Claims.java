/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.TimerRecord;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The rules of claims, timers and submission, as pure functions of rows and the store's time. The
 * same for every store; {@link Units} applies them inside a store's unit of work.
 */
final class Claims {
  private Claims() {}

  /** A worker's hold on an execution: the owner and the epoch of its claim. */
  record Claim(String executionId, String owner, long epoch) {
    static Claim of(ExecutionRecord running) {
      return new Claim(running.id(), running.claimOwner(), running.claimEpoch());
    }
  }

  /** Whether {@code current} is still held by {@code claim}: running, same owner, same epoch. */
  static boolean holds(ExecutionRecord current, Claim claim) {
    return current.status() == ExecutionStatus.RUNNING
        && claim.owner().equals(current.claimOwner())
        && claim.epoch() == current.claimEpoch();
  }

  /**
   * What a due timer does. An execution has one timer, due at the earlier of its wake time (sleep,
   * retry delay) and its deadline, and while it is queued or running, at its deadline. So a due
   * timer either ends an execution whose deadline passed ({@link ExecutionStatus#TIMED_OUT},
   * whatever its state and whoever holds it), or queues a waiting execution again, in the queue's
   * order as of the timer's due time, leaving a timer at its deadline. For an execution that
   * finished or is gone it only goes away.
   *
   * @param write the execution to write, if any
   * @param nextTimer the execution's next timer, if any, else the timer is deleted
   */
  record Fired(Optional<ExecutionRecord> write, OptionalLong nextTimer) {}

  /** Decides what the due {@code timer} does at {@code now}; see {@link Fired}. */
  static Fired fire(Optional<ExecutionRecord> execution, TimerRecord timer, long now) {
    if (execution.isEmpty() || execution.get().status().isTerminal()) {
      return new Fired(Optional.empty(), OptionalLong.empty());
    }
    ExecutionRecord e = execution.get();
    if (overdue(e, now)) {
      return new Fired(Optional.of(timedOut(e, now)), OptionalLong.empty());
    }
    OptionalLong next = e.hasDeadline() ? OptionalLong.of(e.deadlineAt()) : OptionalLong.empty();
    if (e.status() == ExecutionStatus.WAITING && timer.dueAt() <= now) {
      return new Fired(Optional.of(e.unclaimed(ExecutionStatus.QUEUED, timer.dueAt())), next);
    }
    return new Fired(Optional.empty(), next);
  }

  /** Whether an unfinished execution's deadline has passed at {@code now}. */
  static boolean overdue(ExecutionRecord e, long now) {
    return !e.status().isTerminal() && e.hasDeadline() && now >= e.deadlineAt();
  }

  /** Returns the execution ended by its execution timeout. */
  static ExecutionRecord timedOut(ExecutionRecord e, long now) {
    return e.finished(ExecutionStatus.TIMED_OUT, null, null, now);
  }

  /**
   * The due time of the timer of an execution that waits until {@code wakeAt}: the wake time, or
   * its deadline if that comes first.
   */
  static long timerDue(ExecutionRecord e, long wakeAt) {
    return Math.min(wakeAt, e.deadlineAt());
  }

  /**
   * The deadline of an execution created at {@code now} with an execution timeout of {@code
   * timeoutMillis} (none if zero or less), saturating below {@link ExecutionRecord#NO_DEADLINE}.
   */
  static long deadline(long now, long timeoutMillis) {
    if (timeoutMillis <= 0) {
      return ExecutionRecord.NO_DEADLINE;
    }
    long d = now + timeoutMillis;
    return d < now || d >= ExecutionRecord.NO_DEADLINE ? ExecutionRecord.NO_DEADLINE - 1 : d;
  }

  /** A claim of a proven-dead owner goes back to the queue, keeping its epoch to outdate it. */
  static ExecutionRecord takeOver(ExecutionRecord running, long now) {
    return running.unclaimed(ExecutionStatus.QUEUED, now);
  }

  /** What a submit does with an id. */
  sealed interface SubmitDecision {}

  /** The id is new: write this execution. */
  record Create(ExecutionRecord execution) implements SubmitDecision {}

  /** The id names this execution of the same workflow and input: return it. */
  record Existing(ExecutionRecord execution) implements SubmitDecision {}

  /** The id names an execution of another workflow or input. */
  record Conflict(String message) implements SubmitDecision {}

  /**
   * Decides a submit. Inputs are compared as encoded payloads; a codec encodes equal values
   * equally. Another version of the same workflow counts as the same workflow. A new execution's
   * deadline is {@code now + timeoutMillis} (none if {@code timeoutMillis} is zero); a repeated
   * submit keeps the first one's deadline.
   */
  static SubmitDecision submit(
      Optional<ExecutionRecord> existing,
      String id,
      String workflow,
      int version,
      String input,
      long now,
      long timeoutMillis) {
    if (existing.isEmpty()) {
      return new Create(
          ExecutionRecord.queued(id, workflow, version, input, now, deadline(now, timeoutMillis)));
    }
    ExecutionRecord e = existing.get();
    if (!e.workflow().equals(workflow)) {
      return new Conflict(
          "execution id '"
              + id
              + "' already names an execution of workflow '"
              + e.workflow()
              + "', not '"
              + workflow
              + "'");
    }
    if (!e.input().equals(input)) {
      return new Conflict(
          "execution id '"
              + id
              + "' already names an execution of workflow '"
              + workflow
              + "' with another input");
    }
    return new Existing(e);
  }

  /** Whether a finished execution is old enough to purge. */
  static boolean expired(ExecutionRecord e, long cutoff) {
    return e.status().isTerminal() && e.updatedAt() < cutoff;
  }

  /**
   * When the finished execution {@code oldest} becomes purgeable under a retention of {@code
   * retentionMillis}: the first store time at which {@link #expired} holds for the cutoff {@code
   * now - retentionMillis}. {@link Long#MAX_VALUE} if there is none.
   */
  static long purgeableAt(Optional<ExecutionRecord> oldest, long retentionMillis) {
    if (oldest.isEmpty() || !oldest.get().status().isTerminal()) {
      return Long.MAX_VALUE;
    }
    long at = oldest.get().updatedAt() + retentionMillis + 1;
    return at < oldest.get().updatedAt() ? Long.MAX_VALUE : at;
  }
}
