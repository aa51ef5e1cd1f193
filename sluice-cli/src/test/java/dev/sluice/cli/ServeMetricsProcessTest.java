/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.sqlite.SqliteStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice serve}'s {@code /metrics}, scraped over real HTTP from a real server process after
 * real {@code sluice run}s and while this JVM holds a lease of a {@code --pool-dir} pool: the
 * gate's and the limiter pool's series with their values, in Prometheus' text format; beyond
 * loopback only with the token.
 */
class ServeMetricsProcessTest {
  @TempDir Path home;
  @TempDir Path work;

  /** The value of the one series named {@code name} that has every label of {@code labels}. */
  static double value(String text, String name, String... labels) {
    List<String> found =
        text.lines()
            .filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
            .filter(l -> Stream.of(labels).allMatch(l::contains))
            .toList();
    assertThat(found).as(name + " " + List.of(labels) + " in\n" + text).hasSize(1);
    String line = found.get(0);
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }

  /** Waits on the gate's event stream until {@code n} releases went by. */
  private static void awaitReleases(Iterator<String> lines, int n) throws Exception {
    int[] seen = {0};
    ServeProcess.awaitData(
        lines,
        s -> {
          seen[0] +=
              s.get("events").findValuesAsText("type").stream().filter("released"::equals).count();
          return seen[0] >= n;
        });
  }

  @Test
  void aScrapeShowsTheGateRunsByOutcomeAndTheLimiterPoolsSharedState() throws Exception {
    SluiceProcesses sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "builds", "--capacity", "3").exit()).isZero();
    Path poolDir = work.resolve("api.pool");
    try (Limiter limiter =
            Limiter.open(
                SqliteStore.directory(poolDir), LimiterConfig.builder().maxConcurrent(5).build());
        Lease held = limiter.acquire(2);
        ServeProcess serve =
            ServeProcess.start(home, "127.0.0.1:0", "--pool-dir", poolDir.toString())) {
      HttpResponse<Stream<String>> events =
          serve.http.send(
              serve.request("/api/events").build(), HttpResponse.BodyHandlers.ofLines());
      Iterator<String> lines = events.body().iterator();
      Result ok = sluice.run("run", "--pool", "builds", "--", "sh", "-c", "exit 0");
      Result failed = sluice.run("run", "--pool", "builds", "--", "sh", "-c", "exit 3");
      assertThat(ok.exit()).as(ok.toString()).isZero();
      assertThat(failed.exit()).as(failed.toString()).isEqualTo(3);
      awaitReleases(lines, 2);
      events.body().close();

      HttpResponse<String> r =
          serve.http.send(serve.request("/metrics").build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
      String text = r.body();
      String pool = "pool=\"builds\"";
      assertThat(value(text, "sluice_gate_runs_total", pool, "outcome=\"succeeded\"")).isEqualTo(1);
      assertThat(value(text, "sluice_gate_runs_total", pool, "outcome=\"failed\"")).isEqualTo(1);
      assertThat(value(text, "sluice_gate_wait_seconds_count", pool)).isEqualTo(2);
      assertThat(value(text, "sluice_gate_capacity", pool)).isEqualTo(3);
      assertThat(value(text, "sluice_gate_used", pool)).isZero();
      assertThat(value(text, "sluice_gate_queue_length", pool)).isZero();
      String dir = "pool=\"" + limiter.pool() + "\"";
      assertThat(value(text, "sluice_limiter_capacity", dir)).isEqualTo(5);
      assertThat(value(text, "sluice_limiter_active_weight", dir)).isEqualTo(2);
      assertThat(value(text, "sluice_limiter_leases", dir)).isEqualTo(1);
      assertThat(value(text, "sluice_limiter_draining", dir)).isZero();
    } finally {
      sluice.close();
    }
  }

  @Test
  void beyondLoopbackAScrapeNeedsTheToken() throws Exception {
    try (ServeProcess serve = ServeProcess.start(home, "0.0.0.0:0")) {
      HttpResponse<String> anonymous =
          serve.http.send(serve.request("/metrics").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> bearer =
          serve.http.send(
              serve.request("/metrics").header("Authorization", "Bearer " + serve.token).build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(bearer.statusCode()).as(bearer.body()).isEqualTo(200);
      assertThat(anonymous.body()).contains("Bearer");
    }
  }
}
