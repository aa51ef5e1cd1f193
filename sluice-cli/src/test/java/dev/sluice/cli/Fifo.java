/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A named pipe a test's job blocks on ({@code read x < FIFO}) until the test lets it go on: no
 * sleeps, and the job's progress is the test's to decide.
 */
final class Fifo {
  private final Path path;

  private Fifo(Path path) {
    this.path = path;
  }

  /** Makes a FIFO at {@code path}. */
  static Fifo make(Path path) throws Exception {
    assertThat(new ProcessBuilder("mkfifo", path.toString()).start().waitFor()).isZero();
    return new Fifo(path);
  }

  /** Its path, for the job's command line. */
  String path() {
    return path.toString();
  }

  /** Writes one line, once a reader has opened it; fails after the process-test timeout. */
  void send(String line) throws Exception {
    CompletableFuture.runAsync(
            () -> {
              try {
                Files.writeString(path, line + "\n");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            })
        .get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }
}
