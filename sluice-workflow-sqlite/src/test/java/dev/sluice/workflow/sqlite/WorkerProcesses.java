/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link WorkflowWorker} JVMs for the process tests and talks to them over their standard
 * streams; {@link #close()} kills whatever is still running. Reads block until the worker prints
 * (the event itself), under the test's own timeout.
 */
final class WorkerProcesses implements AutoCloseable {
  private final List<Process> started = new ArrayList<>();
  private final Map<Process, BufferedReader> outputs = new HashMap<>();

  /**
   * Starts a worker: {@code jvmOptions} go before the class name, then the worker's arguments.
   *
   * @see WorkflowWorker
   */
  Process start(
      List<String> jvmOptions, Path store, Path log, int count, String block, String... more)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(WorkflowWorker.class.getName());
    cmd.addAll(List.of(store.toString(), log.toString(), Integer.toString(count), block));
    cmd.addAll(List.of(more));
    return track(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
  }

  /** Starts a JVM running {@code main} with these arguments, on the test class path. */
  Process startMain(Class<?> main, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return track(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start());
  }

  private Process track(Process p) {
    started.add(p);
    outputs.put(
        p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    return p;
  }

  /** Starts a worker with no JVM options. */
  Process start(Path store, Path log, int count, String block, String... more) throws IOException {
    return start(List.of(), store, log, count, block, more);
  }

  /** Lets a worker that printed {@code ready} start its runtime. */
  static void go(Process p) throws IOException {
    p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().flush();
  }

  /** The worker's next line other than a {@code finished} progress line. */
  String lineAfterProgress(Process p) throws IOException {
    String l = line(p);
    while (l != null && l.startsWith("finished ")) {
      l = line(p);
    }
    return l;
  }

  /** The worker's next line of output; blocks until it prints one. */
  String line(Process p) throws IOException {
    return outputs.get(p).readLine();
  }

  /**
   * Waits until the execution has {@code status}, looking again on each change the store announces
   * (its pulse), not on a timer.
   */
  static void awaitStatus(Path store, String id, ExecutionStatus status) throws Exception {
    Semaphore changes = new Semaphore(0);
    try (WorkflowSession watcher = SqliteWorkflowStore.directory(store).open()) {
      watcher.onChange(changes::release);
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
    Workflow<String, String> chain =
        Workflow.define(
            "chain",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new AssertionError("the reader runs nothing");
            });
    return WorkflowRuntime.builder()
        .store(SqliteWorkflowStore.directory(store))
        .register(chain)
        .build();
  }

  @Override
  public void close() {
    started.forEach(Process::destroyForcibly);
  }
}
