/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.testkit.workflow.process.ChainWorker;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A worker JVM of the workflow process tests on a PostgreSQL store. Arguments: {@code URL SCHEMA
 * LOG COUNT BLOCK}: {@link ChainWorker} on the workflow store in {@code SCHEMA}, with a heartbeat
 * timeout of 3 s so that a worker learns of another's death within a second.
 */
public final class PgWorkflowWorker {
  private PgWorkflowWorker() {}

  public static void main(String[] args) throws Exception {
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(args[0]);
    hikari.setMaximumPoolSize(4);
    try (HikariDataSource ds = new HikariDataSource(hikari)) {
      ChainWorker.run(
          PostgresWorkflowStore.builder(ds)
              .schema(args[1])
              .heartbeatTimeout(Duration.ofSeconds(3))
              .build(),
          Path.of(args[2]),
          Integer.parseInt(args[3]),
          args[4],
          0);
    }
    System.exit(0);
  }
}
