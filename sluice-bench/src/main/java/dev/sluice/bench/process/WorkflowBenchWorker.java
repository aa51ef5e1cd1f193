/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker JVM of the workflow benchmarks. Arguments: {@code STORE SYNC WARMUP-STORE WARMUP}
 * ({@code SYNC} is {@code full} or {@code normal}). It first runs {@code WARMUP} three-step
 * executions on its own warm-up store, so the JIT has compiled the runtime and the store, and
 * replies {@code ready}; on {@code go} it starts a runtime on {@code STORE}, which then claims and
 * runs whatever is queued there; on {@code stop} it closes it and replies {@code stopped}.
 */
public final class WorkflowBenchWorker {
  private WorkflowBenchWorker() {}

  public static void main(String[] args) throws Exception {
    Path store = Path.of(args[0]);
    boolean full = args[1].equals("full");
    Path warmupStore = Path.of(args[2]);
    int warmup = Integer.parseInt(args[3]);
    WorkerIo io = new WorkerIo();
    try (WorkflowRuntime warm = BenchWorkflows.runtime(warmupStore, full)) {
      warm.start();
      List<Execution<String>> runs = new ArrayList<>();
      for (int i = 0; i < warmup; i++) {
        runs.add(warm.submit(BenchWorkflows.THREE, "w-" + i, "w"));
      }
      for (Execution<String> e : runs) {
        e.result(Duration.ofMinutes(5));
      }
    }
    io.reply("ready");
    WorkflowRuntime runtime = null;
    for (String command; (command = io.next()) != null; ) {
      switch (command) {
        case "go" -> {
          runtime = BenchWorkflows.runtime(store, full);
          runtime.start();
        }
        case "stop" -> {
          if (runtime != null) {
            runtime.close();
          }
          io.reply("stopped");
          return;
        }
        default -> throw new IllegalArgumentException("unknown command " + command);
      }
    }
  }
}
