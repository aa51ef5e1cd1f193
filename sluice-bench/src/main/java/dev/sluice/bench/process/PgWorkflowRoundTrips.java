/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Counts what the PostgreSQL workflow store sends per execution, in the benchmark's configuration
 * (8 workers, 4 step connections): round trips, SQL statements and commits per one-step execution
 * run one at a time (the latency rows) and per three-step execution of a queue of 500 (the
 * throughput rows), after a warm-up, with the statements by their text. Not timed.
 *
 * <p>{@code java -cp benchmarks.jar dev.sluice.bench.process.PgWorkflowRoundTrips [--by-sql]
 * [--trace]}
 */
public final class PgWorkflowRoundTrips {
  private static final Duration LONG = Duration.ofMinutes(2);
  private static final String SCHEMA = "sluice_wfcount";

  private PgWorkflowRoundTrips() {}

  /**
   * Runs the counts and prints them.
   *
   * @param args {@code --by-sql} to print each statement's count too
   * @throws Exception if the server cannot be reached
   */
  public static void main(String[] args) throws Exception {
    boolean bySql = List.of(args).contains("--by-sql");
    PgTarget target = new PgTarget(PgTarget.urlFromEnvironment(), SCHEMA, "count");
    target.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    try (HikariDataSource ds = target.dataSource(16, "count")) {
      CountingDataSource counting = new CountingDataSource(ds);
      WorkflowRuntime runtime = BenchWorkflows.postgres(counting.dataSource(), SCHEMA, 8);
      runtime.start();
      try {
        queue(runtime, BenchWorkflows.THREE, 300, "w");
        one(runtime, 100, "v");
        CountingDataSource.Counts before = counting.counts();
        int ones = 200;
        one(runtime, ones, "o");
        print("1-step, one at a time", counting.counts().minus(before), ones, bySql);
        if (List.of(args).contains("--trace")) {
          counting.startTrace();
          one(runtime, 2, "trace");
          counting.traced().forEach(System.out::println);
        }
        before = counting.counts();
        int threes = 500;
        queue(runtime, BenchWorkflows.THREE, threes, "t");
        print("3-step, a queue of " + threes, counting.counts().minus(before), threes, bySql);
        // A second runtime, as a second worker JVM would be: each claim now has another live
        // owner to prove alive.
        WorkflowRuntime second = BenchWorkflows.postgres(counting.dataSource(), SCHEMA, 8);
        second.start();
        try {
          queue(runtime, BenchWorkflows.THREE, 300, "u");
          before = counting.counts();
          queue(runtime, BenchWorkflows.THREE, threes, "s");
          print(
              "3-step, a queue of " + threes + ", two runtimes",
              counting.counts().minus(before),
              threes,
              bySql);
        } finally {
          second.close();
        }
      } finally {
        runtime.close();
      }
    } finally {
      target.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    }
  }

  private static void one(WorkflowRuntime runtime, int n, String prefix) {
    for (int i = 0; i < n; i++) {
      runtime.submit(BenchWorkflows.ONE, prefix + i, "x").result(LONG);
    }
  }

  private static void queue(
      WorkflowRuntime runtime, Workflow<String, String> flow, int n, String prefix) {
    List<Execution<String>> runs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      runs.add(runtime.submit(flow, prefix + i, "x"));
    }
    for (Execution<String> e : runs) {
      e.result(LONG);
    }
  }

  private static void print(String what, CountingDataSource.Counts c, int n, boolean bySql) {
    System.out.printf(
        "%s: %.2f round trips, %.2f statements, %.2f commits per execution (%d executions)%n",
        what,
        c.roundTrips() / (double) n,
        c.statements() / (double) n,
        c.commits() / (double) n,
        n);
    if (bySql) {
      for (Map.Entry<String, Long> e : c.bySql().entrySet()) {
        System.out.printf("  %8.2f  %s%n", e.getValue() / (double) n, e.getKey());
      }
    }
  }
}
