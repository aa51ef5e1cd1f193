/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import dev.dbos.transact.DBOS;
import dev.dbos.transact.config.DBOSConfig;
import dev.dbos.transact.workflow.Queue;
import dev.dbos.transact.workflow.Workflow;
import java.time.Duration;

/**
 * The workflows of {@link BenchWorkflows} written for DBOS Transact, and the one way every DBOS
 * instance of the benchmark is configured: {@code three} runs three steps that each return a short
 * string, {@code one} runs one, through {@link DBOS#runStep}. Not thread-safe to build; the DBOS
 * instance it returns is.
 */
final class DbosBenchWorkflows {
  /** The queue every benchmark execution is enqueued on. */
  static final String QUEUE = "bench";

  /** A queue nobody enqueues on: the harness listens to it only, so it never runs the bench's. */
  static final String IDLE_QUEUE = "harness-idle";

  private DbosBenchWorkflows() {}

  /** The workflows, called through the proxy {@link DBOS#registerProxy} returns. */
  public interface Flows {
    /**
     * Three steps.
     *
     * @param in the input
     * @return the input with "abc" appended
     */
    String three(String in);

    /**
     * One step.
     *
     * @param in the input
     * @return the input
     */
    String one(String in);
  }

  /** The workflow bodies; steps do no work, so the numbers are DBOS's and the database's cost. */
  public static final class FlowsImpl implements Flows {
    private final DBOS dbos;

    FlowsImpl(DBOS dbos) {
      this.dbos = dbos;
    }

    @Override
    @Workflow(name = "three")
    public String three(String in) {
      String a = dbos.runStep(() -> in + "a", "a");
      String b = dbos.runStep(() -> a + "b", "b");
      return dbos.runStep(() -> b + "c", "c");
    }

    @Override
    @Workflow(name = "one")
    public String one(String in) {
      return dbos.runStep(() -> in, "a");
    }
  }

  /** A configured DBOS instance, its workflows' proxy and its data source, launched. */
  record Instance(DBOS dbos, Flows flows, HikariDataSource dataSource) implements AutoCloseable {
    @Override
    public void close() {
      dbos.close();
      dataSource.close();
    }
  }

  /**
   * Builds and launches a DBOS instance on {@code target}'s schema.
   *
   * @param target the server and the schema DBOS keeps its tables in
   * @param executorId this instance's executor id, unique among the live ones
   * @param listen whether it dequeues the benchmark's queue ({@code false}: it only enqueues)
   * @param workerConcurrency how many executions of the queue this JVM runs at once
   * @param poll the queue's polling interval
   * @param poolSize the connection pool's size
   * @return the launched instance
   */
  static Instance launch(
      PgTarget target,
      String executorId,
      boolean listen,
      int workerConcurrency,
      Duration poll,
      int poolSize) {
    HikariDataSource ds = target.dataSource(poolSize, "dbos-" + executorId);
    DBOSConfig config =
        DBOSConfig.defaults("sluice-bench")
            .withDataSource(ds)
            .withDatabaseSchema(target.schema())
            .withExecutorId(executorId)
            .withAppVersion("bench")
            .withListenQueues(listen ? QUEUE : IDLE_QUEUE)
            .withUseListenNotify(true)
            .withAdminServer(false);
    DBOS dbos = new DBOS(config);
    Queue queue =
        new Queue(QUEUE).withWorkerConcurrency(workerConcurrency).withPollingInterval(poll);
    dbos.registerQueues(queue, new Queue(IDLE_QUEUE).withPollingInterval(Duration.ofSeconds(1)));
    Flows flows = dbos.registerProxy(Flows.class, new FlowsImpl(dbos));
    dbos.launch();
    return new Instance(dbos, flows, ds);
  }
}
