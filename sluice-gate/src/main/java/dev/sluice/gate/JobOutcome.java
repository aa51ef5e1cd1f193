/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Locale;

/**
 * How a submitted job ended. Only {@link #EXITED} carries an exit status of the job's command; the
 * others say why there is none.
 *
 * <p>Immutable and thread-safe.
 */
public enum JobOutcome {
  /** The command ran and exited; its status is 128+N if signal N killed it. */
  EXITED,
  /** No slot came within the job's queue timeout: the command never ran. */
  QUEUE_TIMEOUT,
  /** Withdrawn while it waited ({@code sluice cancel}): the command never ran. */
  CANCELLED,
  /**
   * The command never ran for another reason: the gate refused the request meanwhile (for example
   * {@code weight_exceeds_capacity}), the command could not be spawned, or its runner ended before
   * it started it.
   */
  NOT_STARTED,
  /**
   * The command started, but its runner ended before it (for example by SIGKILL), so its exit
   * status is unknown; its slot was freed when its process group ended.
   */
  LOST;

  /** The outcome as scripts see it, for example {@code queue_timeout}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
