/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent verbs through the real command, each a JVM of its own, on one home. */
class AgentVerbsProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  SluiceProcesses sluice;

  SluiceProcesses sluice() {
    if (sluice == null) {
      sluice = new SluiceProcesses(home);
    }
    return sluice;
  }

  @AfterEach
  void killLeftovers() {
    if (sluice != null) {
      sluice.close();
    }
  }

  static JsonNode json(Result r) throws Exception {
    List<String> lines = r.lines();
    assertThat(lines).as(r.toString()).hasSize(1);
    return JSON.readTree(lines.get(0));
  }

  @Test
  void acquireOnAnIdlePoolIsGrantedAndSaysSoInJsonAndExitStatus() throws Exception {
    assertThat(sluice().run("pool", "set", "idle", "--capacity", "1").exit()).isZero();
    Result r = sluice().run("--json", "--agent", "a1", "acquire", "--pool", "idle", "--op", "k1");
    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode o = json(r);
    assertThat(o.get("state").asText()).isEqualTo("granted");
    assertThat(o.get("pool").asText()).isEqualTo("idle");
    assertThat(o.get("weight").asInt()).isEqualTo(1);
    assertThat(o.get("requestId").asText()).isNotEmpty();
    assertThat(o.get("permitToken").asText()).isNotEmpty();
    assertThat(o.get("startDeadline").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
  }

  @Test
  void acquireIsIdempotentPerAgentAndOp() throws Exception {
    sluice().env("SLUICE_AGENT_ID", "a1");
    assertThat(sluice().run("pool", "set", "p", "--capacity", "2").exit()).isZero();
    JsonNode first = json(sluice().run("--json", "acquire", "--pool", "p", "--op", "same"));
    Result again = sluice().run("--json", "acquire", "--pool", "p", "--op", "same");
    assertThat(again.exit()).as(again.toString()).isZero();
    JsonNode second = json(again);
    assertThat(second.get("state").asText()).isEqualTo("granted");
    assertThat(second.get("requestId").asText()).isEqualTo(first.get("requestId").asText());
    // A different weight under the same key is a conflict, with its own exit status.
    Result conflict =
        sluice().run("--json", "acquire", "--pool", "p", "--op", "same", "--weight", "2");
    assertThat(conflict.exit()).as(conflict.toString()).isEqualTo(13);
    assertThat(json(conflict).get("state").asText()).isEqualTo("conflict");
  }

  @Test
  void releaseIsIdempotent() throws Exception {
    sluice().env("SLUICE_AGENT_ID", "a1");
    String token =
        json(sluice().run("--json", "acquire", "--op", "r1")).get("permitToken").asText();
    Result first = sluice().run("--json", "release", token, "--reason", "done");
    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(json(first).get("state").asText()).isEqualTo("released");
    assertThat(json(first).get("alreadyReleased").asBoolean()).isFalse();
    Result second = sluice().run("--json", "release", token);
    assertThat(second.exit()).as(second.toString()).isZero();
    assertThat(json(second).get("alreadyReleased").asBoolean()).isTrue();
    assertThat(json(second).get("reason").asText()).isEqualTo("done");
  }

  @Test
  void aFullPoolQueuesWithItsOwnExitStatusAndStatusShowsIt() throws Exception {
    assertThat(sluice().run("pool", "set", "one", "--capacity", "1").exit()).isZero();
    Result holder =
        sluice().run("--json", "--agent", "a1", "acquire", "--pool", "one", "--op", "h");
    assertThat(holder.exit()).as(holder.toString()).isZero();
    Result waiter =
        sluice().run("--json", "--agent", "a2", "acquire", "--pool", "one", "--op", "w");
    assertThat(waiter.exit()).as(waiter.toString()).isEqualTo(10);
    assertThat(json(waiter).get("state").asText()).isEqualTo("queued");
    assertThat(json(waiter).get("position").asInt()).isEqualTo(1);

    JsonNode status = json(sluice().run("--json", "status"));
    JsonNode pool = status.get("pools").get(0);
    assertThat(pool.get("name").asText()).isEqualTo("one");
    assertThat(pool.get("capacity").asInt()).isEqualTo(1);
    assertThat(pool.get("queued").asInt()).isEqualTo(1);
    assertThat(pool.get("holders")).hasSize(1);

    Result pending = sluice().run("--json", "--agent", "a2", "pending");
    assertThat(json(pending).get("queued")).hasSize(1);
    Result events = sluice().run("--json", "events", "--since", "0");
    assertThat(events.exit()).isZero();
    assertThat(events.lines())
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).startsWith("{\"sequence\":"));
  }

  @Test
  void aRefusalPrintsItsCodeOnStderrAndJsonOnStdout() throws Exception {
    Result r = sluice().run("--json", "claim", "no-such-token");
    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.err()).startsWith("error: unknown_token: ");
    assertThat(json(r).get("error").asText()).isEqualTo("unknown_token");
  }

  @Test
  void helpThroughTheRealCommandListsEveryVerb() throws Exception {
    Result r = sluice().run("--help");
    assertThat(r.exit()).isZero();
    for (String verb : ParsingTest.VERBS) {
      assertThat(r.out()).containsPattern("(?m)^  " + verb + " +\\S");
    }
  }

  @Test
  void badDurationThroughTheRealCommandExitsTwoNamingTheOption() throws Exception {
    Result r = sluice().run("--agent", "a", "acquire", "--op", "k", "--wait", "forever");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--wait").contains("forever");
  }
}
