/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.postgres.PostgresWorkflowStore;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import java.nio.file.Path;
import javax.sql.DataSource;

/**
 * The workflows of the workflow benchmarks, defined alike in the harness and the workers: {@code
 * three} runs three steps that each return a short string, {@code one} runs one. The bodies do no
 * work, so the numbers are the runtime's and the store's cost.
 */
final class BenchWorkflows {
  static final Workflow<String, String> THREE =
      Workflow.define(
          "three",
          String.class,
          String.class,
          (ctx, in) -> {
            String a = ctx.step("a", String.class, () -> in + "a");
            String b = ctx.step("b", String.class, () -> a + "b");
            return ctx.step("c", String.class, () -> b + "c");
          });

  static final Workflow<String, String> ONE =
      Workflow.define(
          "one", String.class, String.class, (ctx, in) -> ctx.step("a", String.class, () -> in));

  private BenchWorkflows() {}

  /** A runtime with both workflows on the store in {@code dir}; {@code full}: synchronous=FULL. */
  static WorkflowRuntime runtime(Path dir, boolean full) {
    SqliteWorkflowStore store = SqliteWorkflowStore.directory(dir);
    return WorkflowRuntime.builder()
        .store(full ? store : store.withNormalSync())
        .register(THREE)
        .register(ONE)
        .build();
  }

  /**
   * A runtime with both workflows on the PostgreSQL workflow store in {@code schema}, with one
   * connection for claims and step writes per two workers, at most four: with eight workers the
   * store keeps six connections of the pool (four, one for units that run alone, one for wakes).
   *
   * @param dataSource the connections; the caller closes it after the runtime
   * @param schema the store's schema, created if missing
   * @param workers the runtime's worker threads
   * @return the runtime, not started
   */
  static WorkflowRuntime postgres(DataSource dataSource, String schema, int workers) {
    return WorkflowRuntime.builder()
        .store(
            PostgresWorkflowStore.builder(dataSource)
                .schema(schema)
                .stepConnections(Math.max(1, Math.min(4, workers / 2)))
                .build())
        .workers(workers)
        .register(THREE)
        .register(ONE)
        .build();
  }
}
