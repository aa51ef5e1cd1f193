/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolDrainingException;
import dev.sluice.postgres.PostgresStore;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Iterator;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code sluice serve --postgres-url URL --postgres-pool NAME}: a PostgreSQL limiter pool in the
 * JSON API, on its event stream and in {@code /metrics}, over real HTTP against a real server
 * process, while this JVM (another process, another database session) takes leases; drain and
 * resume through the API need the token and reach this JVM's limiter. Runs against the tests'
 * PostgreSQL server (loopback only), in a schema of the test's own, dropped after.
 */
class ServeLimiterPostgresProcessTest {
  @TempDir Path home;
  PGSimpleDataSource dataSource;
  String schema;
  Limiter limiter;
  ServeProcess serve;

  @BeforeEach
  void start() throws Exception {
    String url = LimiterPoolPostgresProcessTest.URL;
    URI server = URI.create(url.substring("jdbc:".length()));
    assertThat(InetAddress.getByName(server.getHost()).isLoopbackAddress())
        .as("the tests' PostgreSQL server %s must be on loopback", url)
        .isTrue();
    schema = "sluice_serve_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    dataSource = new PGSimpleDataSource();
    dataSource.setURL(url);
    limiter =
        Limiter.open(
            PostgresStore.builder(dataSource, "payments").schema(schema).build(),
            LimiterConfig.builder().maxConcurrent(3).build());
    serve =
        ServeProcess.start(
            home,
            "127.0.0.1:0",
            "--postgres-url",
            url,
            "--postgres-pool",
            "payments",
            "--postgres-schema",
            schema);
  }

  @AfterEach
  void stop() throws Exception {
    if (serve != null) {
      serve.close();
    }
    limiter.close();
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    }
  }

  private String key() {
    return "postgres:" + schema + ".sluice_:payments";
  }

  @Test
  void theStreamShowsALeaseOfAnotherProcessWithoutAReload() throws Exception {
    JsonNode listed = serve.get("/api/limiters");
    assertThat(listed.get("pools")).hasSize(1);
    JsonNode pool = listed.get("pools").get(0);
    assertThat(pool.get("key").asText()).isEqualTo(key());
    assertThat(pool.get("name").asText()).isEqualTo("payments");
    assertThat(pool.get("store").asText()).isEqualTo("postgres");
    assertThat(pool.get("schema").asText()).isEqualTo(schema);
    assertThat(pool.get("capacity").asLong()).isEqualTo(3);
    assertThat(pool.get("leases")).isEmpty();

    HttpResponse<Stream<String>> r =
        serve.http.send(
            serve.request("/api/limiters/events").build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    Iterator<String> lines = r.body().iterator();
    assertThat(ServeProcess.awaitPool(lines, p -> true).get("leases")).isEmpty();

    try (Lease lease = limiter.acquire(2)) {
      JsonNode held = ServeProcess.awaitPool(lines, p -> p.get("leases").size() == 1);
      JsonNode l = held.get("leases").get(0);
      assertThat(l.get("fencingToken").asLong()).isEqualTo(lease.admission().fencingToken());
      assertThat(l.get("weight").asLong()).isEqualTo(2);
      assertThat(held.get("activeWeight").asLong()).isEqualTo(2);

      String metrics =
          serve
              .http
              .send(serve.request("/metrics").build(), HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics.lines())
          .anyMatch(
              m ->
                  m.startsWith("sluice_limiter_active_weight{")
                      && m.contains("pool=\"" + limiter.pool() + "\"")
                      && m.endsWith(" 2.0"));
    }
    JsonNode released = ServeProcess.awaitPool(lines, p -> p.get("leases").isEmpty());
    assertThat(released.get("trace").findValuesAsText("kind")).contains("released");
    r.body().close();
  }

  @Test
  void drainNeedsTheTokenAndRefusesNewWorkInAnotherProcess() throws Exception {
    String body = "{\"pool\": \"" + key() + "\"}";
    HttpResponse<String> anonymous = serve.post("/api/limiters/drain", body);
    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    assertThat(limiter.maintenance().status().draining()).isFalse();

    HttpResponse<Stream<String>> r =
        serve.http.send(
            serve.request("/api/limiters/events").build(), HttpResponse.BodyHandlers.ofLines());
    Iterator<String> lines = r.body().iterator();
    HttpResponse<String> drained = serve.postWithToken("/api/limiters/drain", body);
    assertThat(drained.statusCode()).as(drained.body()).isEqualTo(200);
    long generation = ServeProcess.JSON.readTree(drained.body()).get("generation").asLong();
    assertThat(generation).isEqualTo(1);
    assertThat(
            ServeProcess.awaitPool(lines, p -> p.get("draining").asBoolean())
                .get("generation")
                .asLong())
        .isEqualTo(1);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);

    assertThat(limiter.maintenance().resume(generation).draining()).isFalse();
    assertThat(
            ServeProcess.awaitPool(lines, p -> !p.get("draining").asBoolean())
                .get("generation")
                .asLong())
        .isEqualTo(1);
    r.body().close();
  }

  @Test
  void aPoolWithoutItsServerIsAUsageError() throws Exception {
    SluiceProcesses sluice = new SluiceProcesses(home);
    try {
      SluiceProcesses.Result r =
          sluice.run("serve", "--listen", "127.0.0.1:0", "--postgres-pool", "payments");
      assertThat(r.exit()).as(r.toString()).isEqualTo(2);
      assertThat(r.err()).contains("--postgres-pool payments needs --postgres-url");
    } finally {
      sluice.close();
    }
  }
}
