/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job queued by {@code sluice submit}: its request, its command, where its output goes, and once
 * it ended, how. A job's record is kept while it waits or runs and for {@link
 * GateSettings#jobLogRetention()} after it ended, with its log.
 *
 * @param requestId the id of its gate request, which is the job's id
 * @param pool the pool
 * @param weight the capacity units it takes while it runs
 * @param agentId who submitted it
 * @param label its label (the command, unless one was given)
 * @param command the command and its arguments
 * @param log the file its standard output and standard error are appended to, merged
 * @param submittedAt when it was queued
 * @param startedAt when its command was started, or {@code null} while it was not
 * @param endedAt when it ended, or {@code null} while it waits or runs
 * @param end how it ended, or {@code null} while it waits or runs
 */
public record Job(
    String requestId,
    String pool,
    int weight,
    String agentId,
    String label,
    List<String> command,
    Path log,
    Instant submittedAt,
    Instant startedAt,
    Instant endedAt,
    JobEnd end) {
  /** Copies the command and checks that an end comes with its time. */
  public Job {
    Objects.requireNonNull(requestId, "requestId");
    command = List.copyOf(command);
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(submittedAt, "submittedAt");
    if ((endedAt == null) != (end == null)) {
      throw new IllegalArgumentException("endedAt and end must be given together");
    }
  }

  /** When its command was started, if it was. */
  public Optional<Instant> started() {
    return Optional.ofNullable(startedAt);
  }

  /** How it ended, if it did. */
  public Optional<JobEnd> ended() {
    return Optional.ofNullable(end);
  }
}
