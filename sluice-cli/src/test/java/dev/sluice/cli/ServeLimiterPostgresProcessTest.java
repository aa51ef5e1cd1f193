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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code sluice serve --postgres-url URL --postgres-pool NAME}: a PostgreSQL limiter pool in the
 * JSON API, on its event stream and in {@code /metrics}, over real HTTP against a real server
 * process, while this JVM (another process, another database session) takes leases; drain and
 * resume through the API need the token and reach this JVM's limiter; a console whose watching
 * owner the store declared dead watches again as a new owner. Runs against the tests' PostgreSQL
 * server (loopback only), in a schema of the test's own, dropped after.
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

  /**
   * The console is stopped (SIGSTOP) and the server ends its listening connection, which holds its
   * owners' locks; this JVM's next command finds them dead and reclaims them, watching owner
   * included, so no commit names the console any more. Once it runs again it learns the loss and
   * watches as a new owner: the changes after it reach the stream at once. The timeout is well
   * under the console's safety read ({@code LimiterFeed.SAFETY_MINUTES}), so only the live news can
   * pass it.
   */
  @Test
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void aConsoleWhoseWatchingOwnerWasLostWatchesAgainAsANewOwner() throws Exception {
    HttpResponse<Stream<String>> r =
        serve.http.send(
            serve.request("/api/limiters/events").build(), HttpResponse.BodyHandlers.ofLines());
    Iterator<String> lines = r.body().iterator();
    assertThat(ServeProcess.awaitPool(lines, p -> leases(p) == 0)).isNotNull();
    List<String> watching = watchingOwners();
    assertThat(watching).hasSize(1);
    long listener = lockHolder(watching.get(0));

    signal(serve.server, "STOP");
    try {
      terminate(listener);
      try (Lease lease = limiter.acquire(1)) {
        assertThat(watchingOwners()).as("this JVM's acquire reclaimed the console's").isEmpty();
        signal(serve.server, "CONT");
        // The console reads at once when it learns the loss: this shows the lease either way.
        assertThat(ServeProcess.awaitPool(lines, p -> leases(p) == 1)).isNotNull();
      }
    } finally {
      signal(serve.server, "CONT");
    }
    // Only a new watching owner hears of these.
    assertThat(ServeProcess.awaitPool(lines, p -> leases(p) == 0)).isNotNull();
    try (Lease lease = limiter.acquire(2)) {
      assertThat(ServeProcess.awaitPool(lines, p -> leases(p) == 1).get("activeWeight").asLong())
          .isEqualTo(2);
    }
    assertThat(ServeProcess.awaitPool(lines, p -> leases(p) == 0)).isNotNull();
    assertThat(watchingOwners()).hasSize(1).doesNotContainAnyElementsOf(watching);
    r.body().close();
  }

  /** How many leases a pool's view shows, or -1 if it shows a failure instead. */
  private static int leases(JsonNode pool) {
    return pool.has("leases") ? pool.get("leases").size() : -1;
  }

  /** The owners of the pool that watch it (the console's). */
  private List<String> watchingOwners() throws Exception {
    List<String> ids = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT owner_id FROM \""
                    + schema
                    + "\".sluice_limiter_owners WHERE pool = 'payments' AND watching")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }

  /** The server process whose session holds {@code owner}'s advisory lock. */
  private long lockHolder(String owner) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement st =
            c.prepareStatement(
                "SELECT l.pid FROM pg_locks l JOIN \""
                    + schema
                    + "\".sluice_limiter_owners o ON o.owner_id = ?"
                    + " AND l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted"
                    + " AND ((l.classid::bigint << 32) | l.objid::bigint) = o.lock_key")) {
      st.setString(1, owner);
      try (ResultSet rs = st.executeQuery()) {
        assertThat(rs.next()).as("a session holds the lock of owner %s", owner).isTrue();
        return rs.getLong(1);
      }
    }
  }

  /** Ends a server process and waits until it exited (its locks are free then). */
  private void terminate(long pid) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement st = c.prepareStatement("SELECT pg_terminate_backend(?, ?)")) {
      st.setInt(1, (int) pid);
      st.setLong(2, TimeUnit.SECONDS.toMillis(SluiceProcesses.TIMEOUT_SECONDS));
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        assertThat(rs.getBoolean(1)).as("backend %s ended", pid).isTrue();
      }
    }
  }

  private static void signal(Process p, String signal) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor())
        .isZero();
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
