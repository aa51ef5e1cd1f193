/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The end of a submitted job, as recorded once and for good.
 *
 * @param outcome how it ended
 * @param exitStatus the command's exit status (0 to 255; 128+N for signal N), present exactly when
 *     {@code outcome} is {@link JobOutcome#EXITED}
 * @param reason what happened, for people: {@code exited 3}, {@code killed by signal 15}, or why
 *     the command never ran or its status is unknown
 */
public record JobEnd(JobOutcome outcome, OptionalInt exitStatus, String reason) {
  /** Validates the fields. */
  public JobEnd {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(exitStatus, "exitStatus");
    Objects.requireNonNull(reason, "reason");
    if (exitStatus.isPresent() != (outcome == JobOutcome.EXITED)) {
      throw new IllegalArgumentException(
          "exitStatus must be present exactly for "
              + JobOutcome.EXITED
              + ", was "
              + exitStatus
              + " for "
              + outcome);
    }
    if (exitStatus.isPresent() && (exitStatus.getAsInt() < 0 || exitStatus.getAsInt() > 255)) {
      throw new IllegalArgumentException(
          "exitStatus must be between 0 and 255, was " + exitStatus.getAsInt());
    }
  }

  /**
   * The end of a command that ran and exited.
   *
   * @param status its exit status as the JDK reports it: 128+N if signal N killed it
   */
  public static JobEnd exited(int status) {
    String reason = status > 128 ? "killed by signal " + (status - 128) : "exited " + status;
    return new JobEnd(JobOutcome.EXITED, OptionalInt.of(status), reason);
  }

  /**
   * The end of a job without an exit status of its own.
   *
   * @param outcome any outcome but {@link JobOutcome#EXITED}
   * @param reason why
   */
  public static JobEnd without(JobOutcome outcome, String reason) {
    return new JobEnd(outcome, OptionalInt.empty(), reason);
  }
}
