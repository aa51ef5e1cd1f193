/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import dev.dbos.transact.StartWorkflowOptions;
import dev.dbos.transact.workflow.WorkflowHandle;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A worker JVM of {@link PgWorkflowBench}. Arguments: {@code PEER URL SCHEMA WARM-SCHEMA WARMUP
 * WORKERS POOL POLL-MILLIS ID}. It first runs {@code WARMUP} three-step executions on its own
 * warm-up schema (dropped before and after), so the JIT has compiled the engine, and replies {@code
 * ready}; on {@code go} it starts the engine on {@code SCHEMA} with {@code WORKERS} executions at
 * once and {@code POOL} connections, which then runs whatever is queued there, and replies {@code
 * started MILLIS} (how long starting took); on {@code stop} it closes it and replies {@code
 * stopped}.
 */
public final class PgWorkflowWorker {
  private static final Duration LONG = Duration.ofMinutes(5);

  private PgWorkflowWorker() {}

  public static void main(String[] args) throws Exception {
    PgWorkflowPeer peer = PgWorkflowPeer.valueOf(args[0]);
    String url = args[1];
    PgTarget target = new PgTarget(url, args[2], "run");
    PgTarget warm = new PgTarget(url, args[3], "warm");
    int warmup = Integer.parseInt(args[4]);
    int workers = Integer.parseInt(args[5]);
    int pool = Integer.parseInt(args[6]);
    Duration poll = Duration.ofMillis(Long.parseLong(args[7]));
    String id = args[8];
    WorkerIo io = new WorkerIo();
    warm.execute("DROP SCHEMA IF EXISTS " + warm.schema() + " CASCADE");
    try (Engine engine = start(peer, warm, id + "-warm", workers, pool, poll)) {
      warmUp(engine, warmup);
    }
    warm.execute("DROP SCHEMA IF EXISTS " + warm.schema() + " CASCADE");
    io.reply("ready");
    Engine engine = null;
    for (String command; (command = io.next()) != null; ) {
      switch (command) {
        case "go" -> {
          long began = System.nanoTime();
          engine = start(peer, target, id, workers, pool, poll);
          io.reply("started " + (System.nanoTime() - began) / 1_000_000);
        }
        case "stop" -> {
          if (engine != null) {
            engine.close();
          }
          io.reply("stopped");
          return;
        }
        default -> throw new IllegalArgumentException("unknown command " + command);
      }
    }
  }

  /** A running engine: exactly one of the two is set. */
  private record Engine(
      WorkflowRuntime sluice, HikariDataSource ds, DbosBenchWorkflows.Instance dbos)
      implements AutoCloseable {
    @Override
    public void close() {
      if (dbos != null) {
        dbos.close();
      } else {
        sluice.close();
        ds.close();
      }
    }
  }

  /** Starts the engine on {@code target}, running what is queued there. */
  private static Engine start(
      PgWorkflowPeer peer, PgTarget target, String id, int workers, int pool, Duration poll) {
    if (peer == PgWorkflowPeer.DBOS) {
      return new Engine(
          null, null, DbosBenchWorkflows.launch(target, id, true, workers, poll, pool));
    }
    HikariDataSource ds = target.dataSource(pool, "sluice-" + id);
    WorkflowRuntime runtime = BenchWorkflows.postgres(ds, target.schema(), workers);
    runtime.start();
    return new Engine(runtime, ds, null);
  }

  private static void warmUp(Engine engine, int count) {
    if (engine.dbos() != null) {
      DbosBenchWorkflows.Instance dbos = engine.dbos();
      StartWorkflowOptions options = new StartWorkflowOptions().withQueue(DbosBenchWorkflows.QUEUE);
      List<WorkflowHandle<String, RuntimeException>> runs = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        runs.add(dbos.dbos().startWorkflow(() -> dbos.flows().three("w"), options));
      }
      for (WorkflowHandle<String, RuntimeException> h : runs) {
        h.getResult();
      }
      return;
    }
    List<Execution<String>> runs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      runs.add(engine.sluice().submit(BenchWorkflows.THREE, "w-" + i, "w"));
    }
    for (Execution<String> e : runs) {
      e.result(LONG);
    }
  }
}
