/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code force-release} of a permit bound to a real process group: without {@code --kill} it frees
 * the slot and says, in the answer and the event, that the group runs on; with {@code --kill} it
 * stops the group (SIGTERM, then SIGKILL after {@code --grace}) and then frees the slot.
 */
class ForceReleaseProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;
  final List<Process> groups = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
    gate = GateService.open(home);
  }

  @AfterEach
  void close() {
    groups.forEach(Process::destroyForcibly);
    sluice.close();
    gate.close();
  }

  /** A new process group (setsid without a fork: the child leads it) bound to a permit of p. */
  private String heldBy(String... command) throws Exception {
    List<String> argv = new ArrayList<>(List.of("setsid"));
    argv.addAll(List.of(command));
    Process group = new ProcessBuilder(argv).start();
    groups.add(group);
    AcquireOutcome o = gate.acquire(new AcquireRequest("a", "op" + groups.size(), "p", 1, "", ""));
    String token = ((AcquireOutcome.Granted) o).permitToken();
    Result start = sluice.run("start", token, "--pid", Long.toString(group.pid()));
    assertThat(start.exit()).as(start.toString()).isZero();
    return o.ticket().requestId();
  }

  private static JsonNode answer(Result r) throws Exception {
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.lines().get(r.lines().size() - 1));
  }

  private String forceReleasedDetail() throws InterruptedException {
    return EventWait.await(gate, "force_released", "p").detail();
  }

  @Test
  void aGroupThatRunsOnIsNamedInTheAnswerAndTheEvent() throws Exception {
    String id = heldBy("sleep", "1000");
    Process group = groups.get(0);

    JsonNode json = answer(sluice.run("--json", "--agent", "ops", "force-release", id));
    assertThat(json.get("processGroupRunning").asBoolean()).isTrue();
    assertThat(json.get("pgid").asLong()).isEqualTo(group.pid());
    assertThat(forceReleasedDetail()).contains("process group " + group.pid() + " still running");
    assertThat(group.isAlive()).isTrue();
    assertThat(gate.status().get(0).used()).isZero();
  }

  @Test
  void theTextAnswerWarnsAndNamesTheWayToStopTheGroup() throws Exception {
    String id = heldBy("sleep", "1000");
    Result r = sluice.run("--agent", "ops", "force-release", id);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("still runs", "over-subscribed", "force-release --kill");
  }

  @Test
  void killStopsAGroupThatEndsOnSigterm() throws Exception {
    String id = heldBy("sleep", "1000");
    Process group = groups.get(0);

    JsonNode json = answer(sluice.run("--json", "--agent", "ops", "force-release", "--kill", id));
    assertThat(json.get("killed").asText()).isEqualTo("SIGTERM");
    assertThat(group.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(json.get("processGroupRunning").asBoolean()).isFalse();
    assertThat(gate.status().get(0).used()).isZero();
  }

  @Test
  void killSendsSigkillToAGroupThatIgnoresSigtermAfterTheGrace() throws Exception {
    String id = heldBy("sh", "-c", "trap '' TERM; sleep 1000; echo never");
    Process group = groups.get(0);

    JsonNode json =
        answer(
            sluice.run("--json", "--agent", "ops", "force-release", "--kill", "--grace", "1s", id));
    assertThat(json.get("killed").asText()).isEqualTo("SIGKILL");
    assertThat(group.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(json.get("processGroupRunning").asBoolean()).isFalse();
    assertThat(EventWait.await(gate, "signalled", "p").detail())
        .isEqualTo("ops: SIGTERM to process group " + group.pid());
    List<String> signals =
        gate.events(0, 100).stream()
            .filter(e -> e.type().equals("signalled"))
            .map(GateEvent::detail)
            .toList();
    assertThat(signals).hasSize(2);
    assertThat(signals.get(1)).startsWith("ops: SIGKILL to process group " + group.pid());
    assertThat(gate.status().get(0).used()).isZero();
  }

  @Test
  void graceWithoutKillIsAUsageError() throws Exception {
    String id = heldBy("sleep", "1000");
    Result r = sluice.run("force-release", "--grace", "5s", id);
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--grace", "--kill");
    assertThat(gate.status().get(0).used()).isEqualTo(1);
  }
}
