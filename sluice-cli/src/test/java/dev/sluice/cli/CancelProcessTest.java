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
 * {@code sluice cancel} of a request someone waits on, through the real command: the waiting {@code
 * run} or {@code acquire --wait} stops without running anything, says who cancelled it, and the
 * request never comes back at the tail of the queue.
 */
class CancelProcessTest {
  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  GateService gate;

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home).env("USER", "carol");
    Result set = sluice.run("pool", "set", "c", "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    gate = GateService.open(home);
  }

  @AfterEach
  void close() {
    sluice.close();
    gate.close();
  }

  @Test
  void aCancelledWaitingRunExits125WithoutRunningAndNamesWhoCancelled() throws Exception {
    Process holder = sluice.start("run", "--pool", "c", "--", "sh", "-c", "echo holding; cat");
    BufferedReader held =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    assertThat(held.readLine()).isEqualTo("holding");
    Path touched = work.resolve("touched");
    Process waiter = sluice.start("run", "--pool", "c", "--", "touch", touched.toString());
    String id = EventWait.await(gate, "queued", "c").requestId();

    Result cancel = sluice.run("cancel", id);
    assertThat(cancel.exit()).as(cancel.toString()).isZero();

    Result r = SluiceProcesses.finish(waiter);
    assertThat(r.exit()).as(r.toString()).isEqualTo(125);
    assertThat(r.err())
        .as(r.toString())
        .containsPattern(
            "error: cancelled: request "
                + id
                + " \\(pool c\\) was cancelled by carol"
                + " \\(pid \\d+\\) while queued");
    assertThat(touched).as("the command never ran").doesNotExist();
    JsonNode pool = pool("c");
    assertThat(pool.get("queued").asInt()).as("not queued again at the tail").isZero();
    assertThat(pool.get("holders")).hasSize(1);
    assertThat(SluiceProcesses.finish(holder).exit()).isZero();
  }

  @Test
  void aCancelledAcquireWaitStopsAndItsKeyAnswersCancelled() throws Exception {
    sluice.env("SLUICE_AGENT_ID", "ag");
    Result hold = sluice.run("acquire", "--pool", "c", "--op", "hold");
    assertThat(hold.exit()).as(hold.toString()).isZero();
    Process waiter = sluice.start("acquire", "--pool", "c", "--op", "k", "--wait", "10m");
    String id = EventWait.await(gate, "queued", "c").requestId();

    assertThat(sluice.run("cancel", id).exit()).isZero();

    Result r = SluiceProcesses.finish(waiter);
    assertThat(r.exit()).as(r.toString()).isEqualTo(14);
    assertThat(r.err()).contains("error: cancelled: request " + id, "cancelled by ag (pid ");
    Result again = sluice.run("--json", "acquire", "--pool", "c", "--op", "k");
    assertThat(again.exit()).as(again.toString()).isEqualTo(14);
    JsonNode answer = new ObjectMapper().readTree(again.out());
    assertThat(answer.get("error").asText()).isEqualTo("cancelled");
    assertThat(answer.get("message").asText()).contains(id);
    assertThat(sluice.run("rejoin", id).exit()).isEqualTo(14);
    assertThat(pool("c").get("queued").asInt()).isZero();
  }

  private JsonNode pool(String name) throws Exception {
    Result r = sluice.run("--json", "status");
    assertThat(r.exit()).as(r.toString()).isZero();
    for (JsonNode p : new ObjectMapper().readTree(r.out()).get("pools")) {
      if (p.get("name").asText().equals(name)) {
        return p;
      }
    }
    throw new AssertionError("no pool " + name + " in " + r);
  }
}
