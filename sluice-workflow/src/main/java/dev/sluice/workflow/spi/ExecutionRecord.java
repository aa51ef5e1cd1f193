/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.spi;

import dev.sluice.workflow.ExecutionStatus;
import java.util.Objects;

/**
 * One execution's row: which workflow version runs it, its input, where it stands, its output or
 * failure once finished, and its claim while a worker runs it.
 *
 * <p>A claim is the owner's id and an epoch that grows with every claim of the execution, so a
 * write from a worker whose claim was superseded (taken over, cancelled) is recognised and refused.
 *
 * @param id the execution's id
 * @param workflow the workflow's name
 * @param version the workflow version it started with
 * @param status where it stands
 * @param input the encoded input
 * @param output the encoded output when {@link ExecutionStatus#COMPLETED}, else null
 * @param failure the failure when {@link ExecutionStatus#FAILED}, else null
 * @param claimOwner the claiming owner while {@link ExecutionStatus#RUNNING}, else null
 * @param claimEpoch how many times it was claimed
 * @param createdAt when it was submitted, store epoch milliseconds
 * @param queuedAt when it last joined the queue, for the queue's order
 * @param updatedAt when the row last changed; for a finished execution, when it finished
 * @param deadlineAt when its execution timeout passes, store epoch milliseconds, or {@link
 *     #NO_DEADLINE}; while it is unfinished it has a timer due no later than this
 */
public record ExecutionRecord(
    String id,
    String workflow,
    int version,
    ExecutionStatus status,
    String input,
    String output,
    FailureRecord failure,
    String claimOwner,
    long claimEpoch,
    long createdAt,
    long queuedAt,
    long updatedAt,
    long deadlineAt) {
  /** The {@link #deadlineAt()} of an execution without an execution timeout. */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  /** Checks the components. */
  public ExecutionRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(workflow, "workflow");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(input, "input");
    if ((status == ExecutionStatus.RUNNING) != (claimOwner != null)) {
      throw new IllegalArgumentException(
          "execution '" + id + "': a claim owner is set exactly when running, was " + status);
    }
  }

  /**
   * A new queued execution.
   *
   * @param id its id
   * @param workflow the workflow's name
   * @param version the workflow's version
   * @param input the encoded input
   * @param now the store's time
   * @return the row
   */
  public static ExecutionRecord queued(
      String id, String workflow, int version, String input, long now) {
    return queued(id, workflow, version, input, now, NO_DEADLINE);
  }

  /**
   * A new queued execution with a deadline.
   *
   * @param id its id
   * @param workflow the workflow's name
   * @param version the workflow's version
   * @param input the encoded input
   * @param now the store's time
   * @param deadlineAt when its execution timeout passes, or {@link #NO_DEADLINE}
   * @return the row
   */
  public static ExecutionRecord queued(
      String id, String workflow, int version, String input, long now, long deadlineAt) {
    return new ExecutionRecord(
        id,
        workflow,
        version,
        ExecutionStatus.QUEUED,
        input,
        null,
        null,
        null,
        0,
        now,
        now,
        now,
        deadlineAt);
  }

  /** Whether it has an execution timeout. */
  public boolean hasDeadline() {
    return deadlineAt != NO_DEADLINE;
  }

  /** Returns this row claimed by {@code owner} with the next epoch, running. */
  public ExecutionRecord claimedBy(String owner, long now) {
    return new ExecutionRecord(
        id,
        workflow,
        version,
        ExecutionStatus.RUNNING,
        input,
        null,
        null,
        Objects.requireNonNull(owner, "owner"),
        claimEpoch + 1,
        createdAt,
        queuedAt,
        now,
        deadlineAt);
  }

  /** Returns this row unclaimed with {@code status} (queued or waiting), joining the queue now. */
  public ExecutionRecord unclaimed(ExecutionStatus status, long now) {
    if (status != ExecutionStatus.QUEUED && status != ExecutionStatus.WAITING) {
      throw new IllegalArgumentException(
          "unclaimed status must be queued or waiting, was " + status);
    }
    return new ExecutionRecord(
        id,
        workflow,
        version,
        status,
        input,
        null,
        null,
        null,
        claimEpoch,
        createdAt,
        now,
        now,
        deadlineAt);
  }

  /**
   * Returns this row finished: completed with {@code output}, failed with {@code failure}, or
   * cancelled.
   */
  public ExecutionRecord finished(
      ExecutionStatus status, String output, FailureRecord failure, long now) {
    if (!status.isTerminal()) {
      throw new IllegalArgumentException("finished status must be terminal, was " + status);
    }
    return new ExecutionRecord(
        id,
        workflow,
        version,
        status,
        input,
        output,
        failure,
        null,
        claimEpoch,
        createdAt,
        queuedAt,
        now,
        deadlineAt);
  }
}
