/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolDrainingException;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.postgres.PostgresStore;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The drain verbs of {@code sluice pool} on a PostgreSQL limiter pool, through the real command
 * against the tests' PostgreSQL server (loopback only), in a schema of the test's own: the stored
 * capacity is shown, a drain refuses this JVM's new work, resume lets it in, and a missing pool or
 * a bad URL is refused without creating anything.
 */
class LimiterPoolPostgresProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String URL =
      System.getenv()
          .getOrDefault(
              "SLUICE_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  @TempDir Path home;
  SluiceProcesses sluice;
  PGSimpleDataSource dataSource;
  String schema;
  Limiter limiter;

  @BeforeEach
  void open() throws Exception {
    URI server = URI.create(URL.substring("jdbc:".length()));
    assertThat(InetAddress.getByName(server.getHost()).isLoopbackAddress())
        .as("the tests' PostgreSQL server %s must be on loopback", URL)
        .isTrue();
    sluice = new SluiceProcesses(home);
    schema = "sluice_cli_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    dataSource = new PGSimpleDataSource();
    dataSource.setURL(URL);
    limiter =
        Limiter.open(
            PostgresStore.builder(dataSource, "payments").schema(schema).build(),
            LimiterConfig.builder().maxConcurrent(3).build());
  }

  @AfterEach
  void close() throws Exception {
    limiter.close();
    sluice.close();
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    }
  }

  @Test
  void aDrainOfAPostgresPoolRefusesNewWorkAndResumeLetsItIn() throws Exception {
    JsonNode status = ok(pool("status"));
    assertThat(status.get("store").asText()).isEqualTo("postgres");
    assertThat(status.get("pool").asText()).isEqualTo("payments");
    assertThat(status.get("capacity").asLong()).isEqualTo(3);
    assertThat(status.get("draining").asBoolean()).isFalse();

    Lease held = limiter.acquire(1);
    JsonNode drained = ok(pool("drain"));
    String generation = drained.get("generation").asText();
    assertThat(drained.get("activeLeases").asLong()).isEqualTo(1);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);
    held.close();
    assertThat(ok(pool("await", "--generation", generation)).get("settled").asBoolean()).isTrue();
    assertThat(ok(pool("resume", "--generation", generation)).get("draining").asBoolean())
        .isFalse();
    try (Lease again = limiter.acquire(1)) {
      assertThat(again).isNotNull();
    }
  }

  @Test
  void aMissingPoolOrSchemaIsRefusedAndNothingIsCreated() throws Exception {
    Result noPool =
        sluice.run("pool", "drain", "--postgres-url", URL, "--pool", "refunds", "--schema", schema);
    assertThat(noPool.exit()).as(noPool.toString()).isEqualTo(20);
    assertThat(noPool.err()).contains("error: no_such_pool:").contains("refunds");
    assertThat(ok(pool("status")).get("generation").asLong()).isZero();

    String otherSchema = schema + "_none";
    Result noSchema =
        sluice.run(
            "pool", "drain", "--postgres-url", URL, "--pool", "payments", "--schema", otherSchema);
    assertThat(noSchema.exit()).as(noSchema.toString()).isEqualTo(20);
    assertThat(schemaExists(otherSchema)).isFalse();
  }

  @Test
  void aBadUrlOrTwoLocationsAreUsageErrorsNamingTheOption() throws Exception {
    Result badUrl = sluice.run("pool", "status", "--postgres-url", "postgres://x", "--pool", "p");
    assertThat(badUrl.exit()).as(badUrl.toString()).isEqualTo(2);
    assertThat(badUrl.err()).contains("--postgres-url 'postgres://x'").contains("jdbc:postgresql:");
    Result both =
        sluice.run(
            "pool", "status", "--pool-dir", home.toString(), "--postgres-url", URL, "--pool", "p");
    assertThat(both.exit()).as(both.toString()).isEqualTo(2);
    assertThat(both.err()).contains("--pool-dir").contains("mutually exclusive");
  }

  private Result pool(String verb, String... more) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("pool", verb, "--postgres-url", URL, "--pool", "payments", "--schema", schema));
    args.addAll(List.of(more));
    return sluice.run(args.toArray(String[]::new));
  }

  private boolean schemaExists(String name) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement find =
            c.prepareStatement("SELECT count(*) FROM pg_namespace WHERE nspname = ?")) {
      find.setString(1, name);
      try (ResultSet rs = find.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  private static JsonNode ok(Result r) throws Exception {
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.out());
  }
}
