/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import dev.dbos.transact.StartWorkflowOptions;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.WorkflowRuntime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The harness's side of one engine in {@link PgWorkflowBench}: it enqueues executions and waits for
 * their results, and runs none itself. Used by one thread.
 */
sealed interface PgWorkflowClient extends AutoCloseable {
  Duration LONG = Duration.ofMinutes(5);

  /** Enqueues {@code count} three-step executions with ids {@code PREFIX-i}. */
  void enqueueThree(String prefix, int count) throws Exception;

  /** Waits until every execution {@link #enqueueThree} enqueued has its result. */
  void awaitThree() throws Exception;

  /** Enqueues one one-step execution and waits for its result. */
  void runOne(String id) throws Exception;

  @Override
  void close() throws Exception;

  /** Opens the client of {@code peer} on {@code target}, creating its tables. */
  static PgWorkflowClient open(PgWorkflowPeer peer, PgTarget target, int pool, Duration poll)
      throws Exception {
    return peer == PgWorkflowPeer.SLUICE
        ? new SluiceClient(target, pool)
        : new DbosClient(target, pool, poll);
  }

  /** Sluice: a runtime that is never started, so it only submits; results come by notification. */
  final class SluiceClient implements PgWorkflowClient {
    private final HikariDataSource ds;
    private final WorkflowRuntime runtime;
    private final List<Execution<String>> queued = new ArrayList<>();

    SluiceClient(PgTarget target, int pool) {
      ds = target.dataSource(pool, "sluice-harness");
      runtime = BenchWorkflows.postgres(ds, target.schema(), 1);
    }

    @Override
    public void enqueueThree(String prefix, int count) {
      for (int i = 0; i < count; i++) {
        queued.add(runtime.submit(BenchWorkflows.THREE, prefix + "-" + i, "t"));
      }
    }

    @Override
    public void awaitThree() {
      for (Execution<String> e : queued) {
        e.result(LONG);
      }
      queued.clear();
    }

    @Override
    public void runOne(String id) {
      runtime.submit(BenchWorkflows.ONE, id, "x").result(LONG);
    }

    @Override
    public void close() {
      runtime.close();
      ds.close();
    }
  }

  /**
   * DBOS: a DBOS instance that listens to another queue, so it only enqueues. Its handles' {@code
   * getResult} reads the status row once a second, so the harness reads it itself instead: every 10
   * ms for a batch, and back to back (a 0.2 ms pause) for one execution, DBOS's best case.
   */
  final class DbosClient implements PgWorkflowClient {
    private static final long BATCH_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long ONE_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final DbosBenchWorkflows.Instance dbos;
    private final Connection reader;
    private final PreparedStatement status;
    private final PreparedStatement counts;
    private final StartWorkflowOptions options =
        new StartWorkflowOptions().withQueue(DbosBenchWorkflows.QUEUE);
    private String prefix;
    private int expected;

    DbosClient(PgTarget target, int pool, Duration poll) throws SQLException {
      dbos = DbosBenchWorkflows.launch(target, "harness", false, 1, poll, pool);
      reader = target.connect();
      String table = target.schema() + ".workflow_status";
      status = reader.prepareStatement("SELECT status FROM " + table + " WHERE workflow_uuid = ?");
      counts =
          reader.prepareStatement(
              "SELECT count(*) FILTER (WHERE status = 'SUCCESS'), count(*) FILTER (WHERE status"
                  + " NOT IN ('SUCCESS', 'ENQUEUED', 'PENDING')) FROM "
                  + table
                  + " WHERE workflow_uuid LIKE ?");
    }

    @Override
    public void enqueueThree(String prefix, int count) {
      this.prefix = prefix;
      this.expected = count;
      for (int i = 0; i < count; i++) {
        dbos.dbos()
            .startWorkflow(() -> dbos.flows().three("t"), options.withWorkflowId(prefix + "-" + i));
      }
    }

    @Override
    public void awaitThree() throws SQLException {
      long deadline = System.nanoTime() + LONG.toNanos();
      counts.setString(1, prefix + "-%");
      while (true) {
        try (ResultSet rs = counts.executeQuery()) {
          rs.next();
          if (rs.getLong(2) > 0) {
            throw new IllegalStateException(rs.getLong(2) + " DBOS executions failed");
          }
          if (rs.getLong(1) >= expected) {
            return;
          }
        }
        pause(BATCH_POLL_NANOS, deadline);
      }
    }

    @Override
    public void runOne(String id) throws SQLException {
      dbos.dbos().startWorkflow(() -> dbos.flows().one("x"), options.withWorkflowId(id));
      long deadline = System.nanoTime() + LONG.toNanos();
      status.setString(1, id);
      while (true) {
        try (ResultSet rs = status.executeQuery()) {
          String s = rs.next() ? rs.getString(1) : "";
          if (s.equals("SUCCESS")) {
            return;
          }
          if (!s.equals("ENQUEUED") && !s.equals("PENDING")) {
            throw new IllegalStateException("DBOS execution " + id + " ended " + s);
          }
        }
        pause(ONE_POLL_NANOS, deadline);
      }
    }

    private static void pause(long nanos, long deadline) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no result within " + LONG);
      }
      LockSupport.parkNanos(nanos);
    }

    @Override
    public void close() throws SQLException {
      reader.close();
      dbos.close();
    }
  }
}
