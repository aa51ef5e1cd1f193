/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice jobs} through the real command: a running run and a queued one, each with its pool,
 * weight, state, pid, label and times, as text and as JSON, from another process.
 */
class JobsProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;

  @BeforeEach
  void open() {
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void close() {
    sluice.close();
    if (gate != null) {
      gate.close();
    }
  }

  @Test
  void aRunningAndAQueuedRunAreListedWithTheirStatePidAndLabel() throws Exception {
    assertThat(sluice.run("pool", "set", "build", "--capacity", "1").exit()).isZero();
    Process running =
        sluice.start(
            "run",
            "--pool",
            "build",
            "--label",
            "first build",
            "--",
            "sh",
            "-c",
            "echo holding; cat");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("holding");
    Process queued =
        sluice.start("run", "--pool", "build", "--weight", "1", "--label", "second", "--", "true");
    gate = GateService.open(home);
    EventWait.await(gate, "queued", "build");

    Result json = sluice.run("--json", "jobs");
    assertThat(json.exit()).as(json.toString()).isZero();
    JsonNode jobs = JSON.readTree(json.out()).get("jobs");
    assertThat(jobs).hasSize(2);
    JsonNode first = jobs.get(0);
    assertThat(first.get("state").asText()).isEqualTo("held");
    assertThat(first.get("label").asText()).isEqualTo("first build");
    assertThat(first.get("process").get("pid").asLong()).isPositive();
    assertThat(first.get("runningMillis").asLong()).isNotNegative();
    JsonNode second = jobs.get(1);
    assertThat(second.get("state").asText()).isEqualTo("queued");
    assertThat(second.get("position").asInt()).isEqualTo(1);
    assertThat(second.get("label").asText()).isEqualTo("second");
    assertThat(second.has("runningMillis")).isFalse();

    Result text = sluice.run("jobs", "--pool", "build");
    assertThat(text.exit()).as(text.toString()).isZero();
    assertThat(text.out().lines())
        .hasSize(3)
        .satisfies(
            l -> assertThat(l.get(0)).startsWith("ID").contains("WAITED", "RUNNING", "LABEL"))
        .satisfies(l -> assertThat(l.get(1)).contains("build", "held", "first build"))
        .satisfies(l -> assertThat(l.get(2)).contains("queued #1", "second"));
    assertThat(sluice.run("jobs", "--pool", "other").out().lines()).hasSize(1);

    Result done = SluiceProcesses.finish(running);
    assertThat(done.exit()).as(done.toString()).isZero();
    assertThat(SluiceProcesses.finish(queued).exit()).isZero();
    assertThat(JSON.readTree(sluice.run("--json", "jobs").out()).get("jobs")).isEmpty();
  }
}
