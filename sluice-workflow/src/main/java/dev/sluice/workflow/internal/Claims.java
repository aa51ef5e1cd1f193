/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.internal;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.TimerRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

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
   * A due timer queues its waiting execution again, in the queue's order as of the timer's due
   * time; for an execution that is not waiting any more (cancelled, finished) it only goes away.
   *
   * @return the execution to write, or empty if only the timer is to be deleted
   */
  static Optional<ExecutionRecord> fire(
      Optional<ExecutionRecord> execution, TimerRecord timer, long now) {
    return execution
        .filter(e -> e.status() == ExecutionStatus.WAITING && timer.dueAt() <= now)
        .map(e -> e.unclaimed(ExecutionStatus.QUEUED, timer.dueAt()));
  }

  /** A claim of a proven-dead owner goes back to the queue, keeping its epoch to outdate it. */
  static ExecutionRecord takeOver(ExecutionRecord running, long now) {
    return running.unclaimed(ExecutionStatus.QUEUED, now);
  }

  /**
   * Picks the first queued execution this runtime may run now, in queue order.
   *
   * @param queued the queue's head, in order
   * @param runnable whether this runtime can and may run one (version registered, under its limit);
   *     it may reserve capacity for the one it accepts, so it is asked in order and at most once
   *     per candidate until it accepts
   */
  static Optional<ExecutionRecord> pick(
      List<ExecutionRecord> queued, Predicate<ExecutionRecord> runnable) {
    for (ExecutionRecord e : queued) {
      if (runnable.test(e)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
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
   * equally. Another version of the same workflow counts as the same workflow.
   */
  static SubmitDecision submit(
      Optional<ExecutionRecord> existing,
      String id,
      String workflow,
      int version,
      String input,
      long now) {
    if (existing.isEmpty()) {
      return new Create(ExecutionRecord.queued(id, workflow, version, input, now));
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
}
