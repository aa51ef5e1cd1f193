/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.workflow.process.ChainWorker;
import dev.sluice.testkit.workflow.process.WorkerJvms;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link WorkflowWorker} JVMs on a SQLite store for the process tests, through the kit's
 * {@link WorkerJvms}; {@link #close()} kills whatever is still running.
 */
final class WorkerProcesses implements AutoCloseable {
  private final WorkerJvms jvms = new WorkerJvms();

  /**
   * Starts a worker: {@code jvmOptions} go before the class name, then the worker's arguments.
   *
   * @see WorkflowWorker
   */
  Process start(
      List<String> jvmOptions, Path store, Path log, int count, String block, String... more)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.addAll(List.of(store.toString(), log.toString(), Integer.toString(count), block));
    args.addAll(List.of(more));
    return jvms.start(WorkflowWorker.class, jvmOptions, args);
  }

  /** Starts a JVM running {@code main} with these arguments, on the test class path. */
  Process startMain(Class<?> main, String... args) throws IOException {
    return jvms.start(main, List.of(), List.of(args));
  }

  /** Starts a worker with no JVM options. */
  Process start(Path store, Path log, int count, String block, String... more) throws IOException {
    return start(List.of(), store, log, count, block, more);
  }

  /** Lets a worker that printed {@code ready} start its runtime. */
  static void go(Process p) throws IOException {
    WorkerJvms.go(p);
  }

  /** The worker's next line other than a {@code finished} progress line. */
  String lineAfterProgress(Process p) throws IOException {
    return jvms.lineAfterProgress(p);
  }

  /** The worker's next line of output; blocks until it prints one. */
  String line(Process p) throws IOException {
    return jvms.line(p);
  }

  /**
   * Waits until the execution has {@code status}, looking again on each change the store announces
   * (its pulse), not on a timer.
   */
  static void awaitStatus(Path store, String id, ExecutionStatus status) throws Exception {
    Semaphore changes = new Semaphore(0);
    try (WorkflowSession watcher = SqliteWorkflowStore.directory(store).open()) {
      watcher.onChange(changed -> changes.release());
      while (true) {
        Optional<ExecutionStatus> now =
            watcher.transact(tx -> tx.execution(id).map(ExecutionRecord::status));
        if (now.equals(Optional.of(status))) {
          return;
        }
        assertThat(changes.tryAcquire(1, TimeUnit.MINUTES))
            .as("%s reaches %s (last seen %s)", id, status, now)
            .isTrue();
        changes.drainPermits();
      }
    }
  }

  /** A runtime that reads the workers' executions and runs nothing; close it after use. */
  static WorkflowRuntime reader(Path store) {
    return WorkflowRuntime.builder()
        .store(SqliteWorkflowStore.directory(store))
        .register(ChainWorker.readerChain())
        .build();
  }

  @Override
  public void close() {
    jvms.close();
  }
}
