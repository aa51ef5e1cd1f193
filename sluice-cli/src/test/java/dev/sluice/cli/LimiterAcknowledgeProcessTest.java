/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM SIGKILLed inside a managed execution's attempt leaves its operation unconfirmed, and one
 * SIGKILLed during a drain inside a plain {@code schedule} leaves its lease unconfirmed; an
 * operator settles the drain with the real {@code sluice pool acknowledge}, and a stale or
 * reasonless acknowledgement changes nothing.
 */
class LimiterAcknowledgeProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  Process hung;
  String pool;

  @BeforeEach
  void open() {
    sluice = new SluiceProcesses(home);
    pool = work.resolve("pool").toString();
  }

  @AfterEach
  void close() {
    if (hung != null) {
      hung.destroyForcibly();
    }
    sluice.close();
  }

  @Test
  void anOperationLeftByAKilledJvmIsAcknowledgedThroughTheCommand() throws Exception {
    String operation = startHanging();
    JsonNode drained = ok(sluice.run("pool", "drain", "--pool-dir", pool));
    String generation = drained.get("generation").asText();
    assertThat(drained.get("runningOperations").asLong()).isEqualTo(1);

    hung.destroyForcibly();
    assertThat(hung.waitFor(60, TimeUnit.SECONDS)).isTrue();
    JsonNode left = ok(sluice.run("pool", "status", "--pool-dir", pool));
    assertThat(left.get("runningOperations").asLong()).isZero();
    assertThat(left.get("settled").asBoolean()).isFalse();
    JsonNode unconfirmed = left.get("unconfirmed").get(0);
    assertThat(unconfirmed.get("id").asText()).isEqualTo(operation);
    assertThat(unconfirmed.get("acknowledged").asBoolean()).isFalse();
    Result early =
        sluice.run(
            "pool", "await", "--pool-dir", pool, "--generation", generation, "--timeout", "0s");
    assertThat(early.exit()).as(early.toString()).isEqualTo(18);

    Result reasonless = acknowledge(generation, operation, " ");
    assertThat(reasonless.exit()).as(reasonless.toString()).isEqualTo(2);
    assertThat(reasonless.err()).contains("--reason ' ' is blank");
    Result stale = acknowledge("7", operation, "killed by the test");
    assertThat(stale.exit()).as(stale.toString()).isEqualTo(19);
    assertThat(ok(sluice.run("pool", "status", "--pool-dir", pool)).get("unconfirmed"))
        .isEqualTo(left.get("unconfirmed"));

    JsonNode acknowledged = ok(acknowledge(generation, operation, "killed by the test"));
    assertThat(acknowledged.get("settled").asBoolean()).isTrue();
    assertThat(acknowledged.get("unconfirmed").get(0).get("acknowledged").asBoolean()).isTrue();
    assertThat(acknowledged.get("unconfirmed").get(0).get("reason").asText())
        .isEqualTo("killed by the test");
    ok(sluice.run("pool", "await", "--pool-dir", pool, "--generation", generation));
    JsonNode resumed =
        ok(sluice.run("pool", "resume", "--pool-dir", pool, "--generation", generation));
    assertThat(resumed.get("draining").asBoolean()).isFalse();
    assertThat(resumed.get("unconfirmed")).isEmpty();
  }

  @Test
  void aPlainLeaseLeftByAJvmKilledDuringADrainIsAcknowledgedByItsLeaseName() throws Exception {
    String lease = startHanging("plain");
    JsonNode drained = ok(sluice.run("pool", "drain", "--pool-dir", pool));
    String generation = drained.get("generation").asText();
    assertThat(drained.get("activeLeases").asLong()).isEqualTo(1);
    assertThat(drained.get("runningOperations").asLong()).isZero();

    hung.destroyForcibly();
    assertThat(hung.waitFor(60, TimeUnit.SECONDS)).isTrue();
    JsonNode left = ok(sluice.run("pool", "status", "--pool-dir", pool));
    assertThat(left.get("activeLeases").asLong()).isZero();
    assertThat(left.get("settled").asBoolean()).isFalse();
    assertThat(left.get("unconfirmed")).hasSize(1);
    assertThat(left.get("unconfirmed").get(0).get("id").asText()).isEqualTo(lease);

    JsonNode acknowledged = ok(acknowledge(generation, lease, "the job is idempotent"));
    assertThat(acknowledged.get("settled").asBoolean()).isTrue();
    JsonNode resumed =
        ok(sluice.run("pool", "resume", "--pool-dir", pool, "--generation", generation));
    assertThat(resumed.get("unconfirmed")).isEmpty();
    assertThat(ok(sluice.run("pool", "drain", "--pool-dir", pool)).get("clean").asBoolean())
        .isTrue();
  }

  private Result acknowledge(String generation, String operation, String reason) throws Exception {
    return sluice.run(
        "pool",
        "acknowledge",
        "--pool-dir",
        pool,
        "--generation",
        generation,
        "--operation",
        operation,
        "--reason",
        reason);
  }

  /**
   * Starts the hanging JVM (with {@code mode}, if given) and returns the name of what it runs (its
   * operation's id, or its lease's) once it runs.
   */
  private String startHanging(String... mode) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(HangingExecution.class.getName());
    command.add(pool);
    command.addAll(List.of(mode));
    hung = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(hung.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the hanging JVM's first line").startsWith("RUNNING ");
    return line.substring("RUNNING ".length());
  }

  private static JsonNode ok(Result r) throws Exception {
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.out());
  }
}
