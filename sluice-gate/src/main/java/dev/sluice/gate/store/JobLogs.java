/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.local.PoolDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The log files of submitted jobs: {@code <home>/logs/<request id>.log}, created empty with the
 * home's file mode when the job is queued, and removed with the job's record.
 *
 * <p>Thread-safe (stateless beyond the home); never blocks beyond the file system calls.
 */
final class JobLogs {
  static final String DIRECTORY = "logs";

  private final PoolDirectory home;

  JobLogs(PoolDirectory home) {
    this.home = home;
  }

  /** Where the log of {@code requestId} is. */
  Path of(String requestId) {
    return home.file(DIRECTORY).resolve(requestId + ".log");
  }

  /**
   * Creates the empty log of a new job (and {@code logs/} if missing).
   *
   * @throws UncheckedIOException if it cannot be created; the job is then not queued
   */
  Path create(String requestId) {
    try {
      home.subdirectory(DIRECTORY);
      Path log = of(requestId);
      home.createFile(log);
      return log;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the job's log " + of(requestId), e);
    }
  }

  /** Removes the log of a job whose record is removed; a log already gone is no error. */
  void delete(Path log) {
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // Left behind; removing the record matters more, and the file is the user's to delete.
    }
  }
}
