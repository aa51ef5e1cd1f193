/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.postgres.PostgresWorkflowStore;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowInspector;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.WorkflowStore;
import dev.sluice.workflow.sqlite.SqliteWorkflowStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A JVM apart from {@code sluice serve} that writes executions into a workflow store and exits once
 * they stand still: {@code order-42} of {@code checkout} recorded its {@code charge} step and
 * sleeps for an hour; {@code refund-7} of {@code refund} failed in its first step. Prints {@code
 * written} then. Arguments: a SQLite store's directory, or a PostgreSQL store's JDBC URL and
 * schema.
 */
public final class WorkflowWriter {
  static final Workflow<String, String> CHECKOUT =
      Workflow.define(
          "checkout",
          String.class,
          String.class,
          (ctx, order) -> {
            String paid = ctx.step("charge", String.class, () -> "paid " + order);
            ctx.sleep("cool-off", Duration.ofHours(1));
            return ctx.step("ship", String.class, () -> "shipped " + paid);
          });

  static final Workflow<String, String> REFUND =
      Workflow.define(
          "refund",
          String.class,
          String.class,
          (ctx, order) ->
              ctx.step(
                  "reverse",
                  String.class,
                  () -> {
                    throw new IllegalStateException("card expired for " + order);
                  }));

  private WorkflowWriter() {}

  public static void main(String[] args) throws Exception {
    try (WorkflowRuntime rt =
        WorkflowRuntime.builder().store(store(args)).register(CHECKOUT).register(REFUND).build()) {
      Semaphore changed = new Semaphore(0);
      WorkflowInspector in = rt.inspector();
      in.onChange(changed::release);
      rt.start();
      rt.submit(CHECKOUT, "order-42", "o-42");
      rt.submit(REFUND, "refund-7", "o-7");
      while (!standsStill(in)) {
        if (!changed.tryAcquire(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the executions did not settle within 60 s");
        }
      }
    }
    System.out.println("written");
  }

  private static WorkflowStore store(String[] args) {
    if (!args[0].startsWith("jdbc:postgresql:")) {
      return SqliteWorkflowStore.directory(Path.of(args[0]));
    }
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(args[0]);
    return PostgresWorkflowStore.builder(ds).schema(args[1]).build();
  }

  private static boolean standsStill(WorkflowInspector in) {
    return List.of("order-42", "refund-7").stream()
        .map(id -> in.details(id).map(d -> d.execution().status()).orElse(null))
        .toList()
        .equals(List.of(ExecutionStatus.WAITING, ExecutionStatus.FAILED));
  }
}
