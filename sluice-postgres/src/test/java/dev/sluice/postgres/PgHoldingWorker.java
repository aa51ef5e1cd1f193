/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BackendFailureException;
import dev.sluice.testkit.workflow.process.ChainWorker;
import dev.sluice.workflow.DurableStore;
import dev.sluice.workflow.StoreClient;
import dev.sluice.workflow.WorkflowRuntime;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A JVM of {@link StoppedWorkflowJvmTest} that holds the workflow store's lock: arguments {@code
 * URL SCHEMA}. It opens the store (heartbeat timeout 3 s), prints {@code ready}, and on {@code go}
 * updates a durable store's document with an updater that prints {@code holding} and waits for a
 * line on stdin: the updater runs inside the unit's transaction, which holds the store's exclusive
 * lock, so the test can stop this JVM there. Once the updater returns it prints {@code applied N}
 * or {@code failed KIND}, then the document's count as read afresh ({@code count N}), and exits.
 */
public final class PgHoldingWorker {
  private PgHoldingWorker() {}

  /** The durable store's state: a counter. */
  public record Counter(int count) {}

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(args[0]);
    hikari.setMaximumPoolSize(4);
    DurableStore<Counter> counters =
        DurableStore.define("counters", Counter.class, () -> new Counter(0));
    try (HikariDataSource ds = new HikariDataSource(hikari);
        WorkflowRuntime runtime =
            WorkflowRuntime.builder()
                .store(
                    PostgresWorkflowStore.builder(ds)
                        .schema(args[1])
                        .heartbeatTimeout(Duration.ofSeconds(3))
                        .build())
                .register(ChainWorker.readerChain())
                .build()) {
      StoreClient<Counter> counter = runtime.store(counters, "c");
      say("ready");
      if (!"go".equals(in.readLine())) {
        return;
      }
      try {
        Counter after =
            counter
                .update(
                    c -> {
                      say("holding");
                      readLine(in);
                      return new Counter(c.count() + 1);
                    })
                .state();
        say("applied " + after.count());
      } catch (BackendFailureException e) {
        say("failed " + e.kind());
      }
      say("count " + counter.get().state().count());
    }
    System.exit(0);
  }

  private static void readLine(BufferedReader in) {
    try {
      in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
