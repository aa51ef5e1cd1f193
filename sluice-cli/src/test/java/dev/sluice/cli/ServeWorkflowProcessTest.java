/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve --workflow-db}'s workflow API ({@link ServeWorkflowCases}) on a SQLite
 * workflow store in a directory of the test's own.
 */
class ServeWorkflowProcessTest extends ServeWorkflowCases {
  @TempDir Path home;
  @TempDir Path root;
  Path store;

  @BeforeEach
  void start() throws Exception {
    store = root.resolve("flows");
    Files.createDirectory(
        store, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    serve = ServeProcess.start(home, "127.0.0.1:0", "--workflow-db", store.toString());
  }

  @Override
  void writeWorkflows() throws Exception {
    writeWorkflows(store);
  }

  /** Runs {@link WorkflowWriter} on the SQLite store in {@code store} and waits for it. */
  static void writeWorkflows(Path store) throws Exception {
    runWriter(store.toString());
  }
}
