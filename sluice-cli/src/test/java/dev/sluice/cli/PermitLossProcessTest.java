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
import dev.sluice.gate.GateService;
import dev.sluice.gate.GateSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A permit the gate took back (its lease lapsed, its start deadline passed, an operator
 * force-released it) is answered as lost by {@code heartbeat}, {@code start}, {@code mark-started}
 * and {@code release}: the reason in the JSON and the text, and exit status 15, so that an agent
 * stops the work it believed was guarded.
 */
class PermitLossProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LOST = 15;

  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;
  Process group;

  @BeforeEach
  void open() {
    // The home is made through the API only to shorten the lease and the start deadline; the verbs
    // under test go through the real command.
    gate =
        GateService.open(
            home,
            GateSettings.builder()
                .defaultCapacity(3)
                .startDeadline(Duration.ofSeconds(2))
                .untrackedLease(Duration.ofSeconds(2))
                .build());
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void close() {
    if (group != null) {
      group.destroyForcibly();
    }
    sluice.close();
    gate.close();
  }

  private String grant(String agent, String op) {
    AcquireOutcome o = gate.acquire(new AcquireRequest(agent, op, "default", 1, op, ""));
    return ((AcquireOutcome.Granted) o).permitToken();
  }

  private static JsonNode last(Result r, int exit) throws Exception {
    assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
    return JSON.readTree(r.lines().get(r.lines().size() - 1));
  }

  @Test
  void aLapsedLeaseIsAnsweredAsLostByHeartbeatMarkStartedAndRelease() throws Exception {
    String token = grant("a", "lease");
    gate.markStarted(token);
    EventWait.await(gate, "reclaimed", "default");

    JsonNode beat = last(sluice.run("--json", "--agent", "a", "heartbeat"), LOST);
    assertThat(beat.get("extended").asInt()).isZero();
    assertThat(beat.get("lost").get(0).get("reason").asText()).isEqualTo("lease_expired");

    Result text = sluice.run("--agent", "a", "heartbeat");
    assertThat(text.exit()).as(text.toString()).isEqualTo(LOST);
    assertThat(text.out()).contains("lost", "lease_expired", "stop its work");

    JsonNode byToken = last(sluice.run("--json", "heartbeat", token), LOST);
    assertThat(byToken.get("lost").get(0).get("reason").asText()).isEqualTo("lease_expired");

    Result marked = sluice.run("--json", "mark-started", token);
    assertThat(last(marked, LOST).get("reason").asText()).isEqualTo("lease_expired");
    assertThat(marked.err()).contains("lease_expired", "lost");

    JsonNode released = last(sluice.run("--json", "release", token), LOST);
    assertThat(released.get("lost").asBoolean()).isTrue();
    assertThat(released.get("reason").asText()).isEqualTo("lease_expired");

    // A new permit of the same agent is what its heartbeat answers for now.
    gate.markStarted(grant("a", "next"));
    JsonNode fresh = last(sluice.run("--json", "--agent", "a", "heartbeat"), 0);
    assertThat(fresh.get("extended").asInt()).isEqualTo(1);
    assertThat(fresh.get("lost")).isEmpty();
  }

  @Test
  void aPermitPastItsStartDeadlineIsAnsweredAsLostByStart() throws Exception {
    String token = grant("b", "late");
    EventWait.await(gate, "reclaimed", "default");
    group = new ProcessBuilder("setsid", "sleep", "1000").start();

    Result start = sluice.run("--json", "start", token, "--pid", Long.toString(group.pid()));
    JsonNode answer = last(start, LOST);
    assertThat(answer.get("error").asText()).isEqualTo("start_deadline_passed");
    assertThat(answer.get("reason").asText()).isEqualTo("start_deadline_passed");
    assertThat(start.err()).contains("stop its work");
  }

  @Test
  void aForceReleasedPermitIsAnsweredAsLostByItsHoldersRelease() throws Exception {
    String token = grant("c", "forced");
    String id = gate.status().get(0).holders().get(0).requestId();
    Result forced = sluice.run("--agent", "ops", "force-release", id);
    assertThat(forced.exit()).as(forced.toString()).isZero();

    Result release = sluice.run("release", token);
    assertThat(release.exit()).as(release.toString()).isEqualTo(LOST);
    assertThat(release.out()).contains("force_released by ops", "lost");
  }
}
