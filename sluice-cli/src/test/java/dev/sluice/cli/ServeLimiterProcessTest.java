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
import dev.sluice.sqlite.SqliteStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve --pool-dir}: a SQLite limiter pool in the JSON API and on its event stream,
 * over real HTTP against a real server process, while this JVM (another process) takes leases, and
 * drain and resume through the API, which need the token.
 */
class ServeLimiterProcessTest {
  @TempDir Path home;
  @TempDir Path work;
  Path poolDir;
  Limiter limiter;
  ServeProcess serve;

  @BeforeEach
  void start() throws Exception {
    poolDir = work.resolve("payments.pool");
    limiter =
        Limiter.open(
            SqliteStore.directory(poolDir),
            LimiterConfig.builder()
                .maxConcurrent(2)
                .reservoir(100)
                .reservoirRefresh(100, Duration.ofHours(1))
                .build());
    serve = ServeProcess.start(home, "127.0.0.1:0", "--pool-dir", poolDir.toString());
  }

  @AfterEach
  void stop() throws Exception {
    serve.close();
    limiter.close();
  }

  private String key() {
    return poolDir.toAbsolutePath().normalize().toString();
  }

  @Test
  void theApiShowsTheStoredPoolAndTheStreamALeaseTakenByAnotherProcess() throws Exception {
    JsonNode listed = serve.get("/api/limiters");
    JsonNode pool = listed.get("pools").get(0);
    assertThat(listed.get("pools")).hasSize(1);
    assertThat(listed.get("canAct").asBoolean()).isFalse();
    assertThat(pool.get("key").asText()).isEqualTo(key());
    assertThat(pool.get("capacity").asLong()).isEqualTo(2);
    assertThat(pool.get("activeWeight").asLong()).isZero();
    assertThat(pool.get("reservoir").asLong()).isEqualTo(100);
    assertThat(pool.get("nextRefill").asText()).isNotEmpty();
    assertThat(pool.get("leases")).isEmpty();
    assertThat(pool.get("draining").asBoolean()).isFalse();
    assertThat(pool.get("circuit").asText()).isEqualTo("closed");

    HttpResponse<Stream<String>> r =
        serve.http.send(
            serve.request("/api/limiters/events").build(), HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    Iterator<String> lines = r.body().iterator();
    assertThat(ServeProcess.awaitPool(lines, p -> true).get("leases")).isEmpty();

    try (Lease lease = limiter.acquire(2)) {
      long token = lease.admission().fencingToken();
      JsonNode held = ServeProcess.awaitPool(lines, p -> p.get("leases").size() == 1);
      JsonNode l = held.get("leases").get(0);
      assertThat(l.get("fencingToken").asLong()).isEqualTo(token);
      assertThat(l.get("weight").asLong()).isEqualTo(2);
      assertThat(l.get("owner").asText()).isNotEmpty();
      assertThat(held.get("activeWeight").asLong()).isEqualTo(2);
      assertThat(held.get("reservoir").asLong()).isEqualTo(98);
      assertThat(held.get("trace").findValuesAsText("kind")).contains("admitted");
    }
    JsonNode released = ServeProcess.awaitPool(lines, p -> p.get("leases").isEmpty());
    assertThat(released.get("trace").findValuesAsText("kind")).contains("released");
    r.body().close();
  }

  @Test
  void drainAndResumeNeedTheTokenAndReachEveryProcess() throws Exception {
    String body = "{\"pool\": \"" + key() + "\"}";
    HttpResponse<String> anonymous = serve.post("/api/limiters/drain", body);
    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    assertThat(limiter.maintenance().status().draining()).isFalse();

    HttpResponse<String> foreign = serve.postFromForeignOrigin("/api/limiters/drain", body);
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);

    HttpResponse<String> drained = serve.postWithToken("/api/limiters/drain", body);
    assertThat(drained.statusCode()).as(drained.body()).isEqualTo(200);
    JsonNode d = ServeProcess.JSON.readTree(drained.body());
    assertThat(d.get("draining").asBoolean()).isTrue();
    long generation = d.get("generation").asLong();
    assertThat(generation).isEqualTo(1);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);

    HttpResponse<String> stale =
        serve.postWithToken(
            "/api/limiters/resume", "{\"pool\": \"" + key() + "\", \"generation\": 7}");
    assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
    assertThat(ServeProcess.JSON.readTree(stale.body()).get("error").asText())
        .isEqualTo("stale_drain");
    HttpResponse<String> unknown =
        serve.postWithToken("/api/limiters/drain", "{\"pool\": \"/no/such/pool\"}");
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);

    HttpResponse<String> resumed =
        serve.postWithToken(
            "/api/limiters/resume",
            "{\"pool\": \"" + key() + "\", \"generation\": " + generation + "}");
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    assertThat(ServeProcess.JSON.readTree(resumed.body()).get("draining").asBoolean()).isFalse();
    try (Lease again = limiter.acquire(1)) {
      assertThat(again.admission().weight()).isEqualTo(1);
    }
  }

  @Test
  void aDirectoryWithoutAPoolIsRefusedAndNotCreated() throws Exception {
    Path missing = work.resolve("no-such-pool");
    SluiceProcesses sluice = new SluiceProcesses(home);
    try {
      SluiceProcesses.Result r =
          sluice.run("serve", "--listen", "127.0.0.1:0", "--pool-dir", missing.toString());
      assertThat(r.exit()).as(r.toString()).isEqualTo(20);
      assertThat(r.err()).contains("no_such_pool").contains(missing.toString());
      assertThat(missing).doesNotExist();
    } finally {
      sluice.close();
    }
  }
}
