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
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's drain of a SQLite limiter pool through the real command, against a pool that a
 * limiter in this JVM opened: status, drain, await, resume, and refusals of stale generations and
 * missing pools.
 */
class LimiterDrainProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  Path poolDir;
  Limiter limiter;

  @BeforeEach
  void open() {
    sluice = new SluiceProcesses(home);
    poolDir = work.resolve("pool");
    limiter =
        Limiter.open(
            SqliteStore.directory(poolDir), LimiterConfig.builder().maxConcurrent(3).build());
  }

  @AfterEach
  void close() {
    limiter.close();
    sluice.close();
  }

  @Test
  void statusShowsTheStoredCapacityAndNoDrain() throws Exception {
    JsonNode s = ok(sluice.run("pool", "status", "--pool-dir", poolDir.toString()));
    assertThat(s.get("capacity").asLong()).isEqualTo(3);
    assertThat(s.get("generation").asLong()).isZero();
    assertThat(s.get("draining").asBoolean()).isFalse();
  }

  @Test
  void aDrainRefusesNewWorkAwaitSettlesOnReleaseAndResumeLetsWorkIn() throws Exception {
    Lease held = limiter.acquire(1);
    JsonNode drained = ok(sluice.run("pool", "drain", "--pool-dir", poolDir.toString()));
    long generation = drained.get("generation").asLong();
    assertThat(generation).isEqualTo(1);
    assertThat(drained.get("draining").asBoolean()).isTrue();
    assertThat(drained.get("activeLeases").asLong()).isEqualTo(1);
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);

    String gen = Long.toString(generation);
    Result early =
        sluice.run(
            "pool",
            "await",
            "--pool-dir",
            poolDir.toString(),
            "--generation",
            gen,
            "--timeout",
            "0s");
    assertThat(early.exit()).as(early.toString()).isEqualTo(18);
    assertThat(JSON.readTree(early.out()).get("settled").asBoolean()).isFalse();

    Process await =
        sluice.start(
            "pool",
            "await",
            "--pool-dir",
            poolDir.toString(),
            "--generation",
            gen,
            "--timeout",
            "2m");
    held.close();
    JsonNode settled = ok(SluiceProcesses.finish(await));
    assertThat(settled.get("settled").asBoolean()).isTrue();
    assertThat(settled.get("activeLeases").asLong()).isZero();

    Result stale =
        sluice.run("pool", "resume", "--pool-dir", poolDir.toString(), "--generation", "7");
    assertThat(stale.exit()).as(stale.toString()).isEqualTo(19);
    assertThat(stale.err()).contains("error: stale_drain:").contains("generation 7");
    assertThatThrownBy(() -> limiter.acquire(1)).isInstanceOf(PoolDrainingException.class);

    JsonNode resumed =
        ok(sluice.run("pool", "resume", "--pool-dir", poolDir.toString(), "--generation", gen));
    assertThat(resumed.get("draining").asBoolean()).isFalse();
    try (Lease again = limiter.acquire(1)) {
      assertThat(again).isNotNull();
    }
  }

  @Test
  void aMissingPoolDirectoryIsRefusedAndNotCreated() throws Exception {
    Path missing = work.resolve("no-such-pool");
    Result r = sluice.run("pool", "drain", "--pool-dir", missing.toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(20);
    assertThat(r.err()).contains("error: no_such_pool: --pool-dir " + missing);
    assertThat(missing).doesNotExist();
    Path empty = work.resolve("empty");
    java.nio.file.Files.createDirectory(empty);
    Result none = sluice.run("pool", "status", "--pool-dir", empty.toString());
    assertThat(none.exit()).as(none.toString()).isEqualTo(20);
    try (var files = java.nio.file.Files.list(empty)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aGenerationBelowOneIsAUsageErrorNamingTheOption() throws Exception {
    Result r = sluice.run("pool", "resume", "--pool-dir", poolDir.toString(), "--generation", "0");
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--generation 0").contains("from 1");
    assertThat(limiter.maintenance().status().generation()).isZero();
  }

  private static JsonNode ok(Result r) throws Exception {
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.out());
  }
}
