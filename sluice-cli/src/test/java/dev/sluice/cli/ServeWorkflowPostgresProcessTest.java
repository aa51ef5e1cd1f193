/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code sluice serve --workflow-pg URL --workflow-pg-schema SCHEMA}'s workflow API ({@link
 * ServeWorkflowCases}) on a PostgreSQL workflow store: the executions are written by another JVM
 * through its own connections, and the console learns of them by the store's NOTIFY. Runs against
 * the tests' PostgreSQL server (loopback only), in a schema of each test's own, dropped after.
 */
class ServeWorkflowPostgresProcessTest extends ServeWorkflowCases {
  @TempDir Path home;
  String url;
  String schema;

  @BeforeEach
  void start() throws Exception {
    url = LimiterPoolPostgresProcessTest.URL;
    URI server = URI.create(url.substring("jdbc:".length()));
    assertThat(InetAddress.getByName(server.getHost()).isLoopbackAddress())
        .as("the tests' PostgreSQL server %s must be on loopback", url)
        .isTrue();
    schema = "sluice_wf_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    serve =
        ServeProcess.start(
            home, "127.0.0.1:0", "--workflow-pg", url, "--workflow-pg-schema", schema);
  }

  @Override
  void writeWorkflows() throws Exception {
    runWriter(url, schema);
  }

  @Override
  void dropStore() throws Exception {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(url);
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    }
  }
}
