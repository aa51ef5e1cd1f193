/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow;

/**
 * Where an execution stands. An execution moves {@code QUEUED -> RUNNING}, then either back to
 * {@code QUEUED} (its worker stopped), to {@code WAITING} (a durable sleep or a retry delay; queued
 * again when its timer falls due) or to one of the terminal states {@code COMPLETED}, {@code
 * FAILED}, {@code CANCELLED} and {@code TIMED_OUT}, which never change again. An execution with an
 * execution timeout becomes {@code TIMED_OUT} from any unfinished state once its deadline passes.
 *
 * <p>Stores persist {@link #code()}, never the ordinal, so constants can be added or reordered.
 */
public enum ExecutionStatus {
  /** Waiting for a worker to claim it. */
  QUEUED("queued"),
  /** Claimed by a worker that is replaying or running it. */
  RUNNING("running"),
  /** Suspended until a durable timer falls due. */
  WAITING("waiting"),
  /** Finished with a result. */
  COMPLETED("completed"),
  /** Finished with a failure. */
  FAILED("failed"),
  /** Cancelled before it finished. */
  CANCELLED("cancelled"),
  /**
   * Ended because its execution timeout passed before it finished; see {@link
   * SubmitOptions.Builder#executionTimeout}.
   */
  TIMED_OUT("timed_out");

  private final String code;

  ExecutionStatus(String code) {
    this.code = code;
  }

  /** Returns the stable code stores persist. */
  public String code() {
    return code;
  }

  /** Whether the execution has finished and will never change again. */
  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED || this == TIMED_OUT;
  }

  /**
   * Returns the status with this stable code.
   *
   * @param code a code from {@link #code()}
   * @return the status
   * @throws IllegalArgumentException naming the code if no status has it
   */
  public static ExecutionStatus ofCode(String code) {
    for (ExecutionStatus s : values()) {
      if (s.code.equals(code)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "unknown execution status code '"
            + code
            + "' (allowed: queued, running, waiting,"
            + " completed, failed, cancelled, timed_out)");
  }
}
