/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** What every test with worker JVMs shares: a fresh directory, the workers, and their cleanup. */
abstract class ProcessTestCase {
  static final int CAP = 4;

  @TempDir Path root;
  final WorkerProcesses workers = new WorkerProcesses();

  @AfterEach
  void killLeftovers() {
    workers.close();
  }
}
