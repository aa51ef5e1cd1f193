/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.testkit.workflow.process.ChainWorker;
import java.nio.file.Path;

/**
 * A worker JVM of the workflow process tests on a SQLite store. Arguments: {@code STORE LOG COUNT
 * BLOCK [PAUSE-MILLIS]}: {@link ChainWorker} on the store in directory {@code STORE}.
 */
public final class WorkflowWorker {
  private WorkflowWorker() {}

  public static void main(String[] args) throws Exception {
    ChainWorker.run(
        SqliteWorkflowStore.directory(Path.of(args[0])).withNormalSync(),
        Path.of(args[1]),
        Integer.parseInt(args[2]),
        args[3],
        args.length > 4 ? Long.parseLong(args[4]) : 0);
  }
}
