/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice kill} and {@code sluice cancel} of runs by id and by label, from another process,
 * through the real command: a killed run exits as a shell reports the signal and frees its slot for
 * the next in the queue, the event names who killed it, a command that ignores SIGTERM gets SIGKILL
 * after the grace, a waiting run is cancelled, and a label that names no job or several is refused
 * with nothing changed.
 */
class KillProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  GateService gate;
  final List<Long> groups = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home).env("USER", "carol");
    Result set = sluice.run("pool", "set", "k", "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    gate = GateService.open(home);
  }

  @AfterEach
  void close() throws Exception {
    for (long pgid : groups) {
      new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start().waitFor();
    }
    sluice.close();
    gate.close();
  }

  /** A run of {@code script} in pool k that has started: it printed {@code ready}. */
  private Process running(String label, String script) throws Exception {
    Process p = sluice.start("run", "--pool", "k", "--label", label, "--", "sh", "-c", script);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("ready");
    Ticket held = pool().holders().get(0);
    assertThat(held.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
    groups.add(held.process().pgid());
    return p;
  }

  private PoolStatus pool() {
    return gate.status().stream().filter(p -> p.name().equals("k")).findFirst().orElseThrow();
  }

  /** Starts a run that will wait in pool k's queue, and waits until it is queued. */
  private Process queued(String label, Path marker, int position) throws Exception {
    long since = gate.lastEventSequence();
    Process p =
        sluice.start("run", "--pool", "k", "--label", label, "--", "touch", marker.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (pool().queued().size() < position) {
      assertThat(System.nanoTime() - deadline).as("queued in time").isNegative();
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(10))) {
        since = e.sequence();
      }
    }
    return p;
  }

  private List<GateEvent> events(String type) {
    return gate.events(0, 1000).stream().filter(e -> e.type().equals(type)).toList();
  }

  @Test
  void killByIdEndsTheRunWith143FreesTheSlotForTheNextAndIsRecorded() throws Exception {
    Process holder = running("long build", "echo ready; exec sleep 1000");
    String id = pool().holders().get(0).requestId();
    Path nextRan = work.resolve("next-ran");
    Process next = queued("next", nextRan, 1);

    Result kill = sluice.run("--json", "kill", id);

    assertThat(kill.exit()).as(kill.toString()).isZero();
    JsonNode answer = JSON.readTree(kill.out());
    assertThat(answer.get("action").asText()).isEqualTo("killed");
    assertThat(answer.get("requestId").asText()).isEqualTo(id);
    assertThat(answer.get("signal").asText()).isEqualTo("SIGTERM");
    assertThat(answer.get("endedBy").asText()).isEqualTo("SIGTERM");
    assertThat(answer.get("processGroupRunning").asBoolean()).isFalse();
    Result held = SluiceProcesses.finish(holder);
    assertThat(held.exit()).as(held.toString()).isEqualTo(143);
    assertThat(held.err())
        .as(held.toString())
        .containsPattern(
            "sluice: " + id + " was killed by carol \\(pid \\d+\\): SIGTERM to process group \\d+");
    Result after = SluiceProcesses.finish(next);
    assertThat(after.exit()).as("the next run got the slot: " + after).isZero();
    assertThat(nextRan).exists();
    assertThat(gate.ticket(id).orElseThrow().endReason()).isEqualTo("killed by signal 15");
    assertThat(events("killed"))
        .singleElement()
        .satisfies(e -> assertThat(e.requestId()).isEqualTo(id));
    Result feed = sluice.run("events");
    assertThat(feed.out())
        .as(feed.toString())
        .containsPattern("killed +k +" + id + " carol +by carol \\(pid \\d+\\): SIGTERM");
    assertThat(pool().used()).isZero();
  }

  @Test
  void killByLabelFromAnotherProcessSaysWhatItDid() throws Exception {
    Process holder = running("nightly build", "echo ready; sleep 1000");
    String id = pool().holders().get(0).requestId();

    Result kill = sluice.run("kill", "--label", "nightly build");

    assertThat(kill.exit()).as(kill.toString()).isZero();
    assertThat(kill.out()).contains(id + " (pool k, \"nightly build\"): killed pgid", "(SIGTERM)");
    assertThat(SluiceProcesses.finish(holder).exit()).isEqualTo(143);
    assertThat(pool().used()).isZero();
    assertThat(pool().holders()).isEmpty();
  }

  @Test
  void aCommandThatIgnoresSigtermGetsSigkillAfterTheGrace() throws Exception {
    Process holder = running("stubborn", "trap '' TERM; echo ready; sleep 1000; echo never");
    String id = pool().holders().get(0).requestId();

    Result kill = sluice.run("--json", "kill", id, "--grace", "1s");

    assertThat(kill.exit()).as(kill.toString()).isZero();
    JsonNode answer = JSON.readTree(kill.out());
    assertThat(answer.get("signal").asText()).isEqualTo("SIGTERM");
    assertThat(answer.get("endedBy").asText()).isEqualTo("SIGKILL");
    Result held = SluiceProcesses.finish(holder);
    assertThat(held.exit()).as(held.toString()).isEqualTo(137);
    assertThat(held.out()).doesNotContain("never");
    assertThat(events("signalled"))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.detail())
                    .startsWith("carol: SIGKILL to process group ")
                    .contains("1s"));
    assertThat(pool().used()).isZero();
  }

  @Test
  void waitingRunsAreCancelledByLabelWithCancelOrKill() throws Exception {
    Process holder = running("holder", "echo ready; cat");
    Path first = work.resolve("first");
    Path second = work.resolve("second");
    Process w1 = queued("first waiter", first, 1);
    Process w2 = queued("second waiter", second, 2);

    Result cancel = sluice.run("cancel", "--label", "first waiter");
    assertThat(cancel.exit()).as(cancel.toString()).isZero();
    Result kill = sluice.run("--json", "kill", "--label", "second waiter");
    assertThat(kill.exit()).as(kill.toString()).isZero();
    assertThat(JSON.readTree(kill.out()).get("action").asText()).isEqualTo("cancelled");
    assertThat(JSON.readTree(kill.out()).get("state").asText()).isEqualTo("cancelled");

    for (Process w : List.of(w1, w2)) {
      Result r = SluiceProcesses.finish(w);
      assertThat(r.exit()).as(r.toString()).isEqualTo(125);
      assertThat(r.err()).as(r.toString()).contains("was cancelled by carol (pid ");
    }
    assertThat(first).doesNotExist();
    assertThat(second).doesNotExist();
    assertThat(pool().queued()).isEmpty();
    assertThat(pool().holders()).hasSize(1);
    assertThat(SluiceProcesses.finish(holder).exit()).isZero();
  }

  @Test
  void anAmbiguousOrUnknownLabelIsRefusedAndNothingChanges() throws Exception {
    Process holder = running("holder", "echo ready; cat");
    Process w1 = queued("dup", work.resolve("a"), 1);
    Process w2 = queued("dup", work.resolve("b"), 2);
    List<String> ids = pool().queued().stream().map(Ticket::requestId).toList();
    long before = gate.lastEventSequence();

    for (String verb : List.of("kill", "cancel")) {
      Result ambiguous = sluice.run("--json", verb, "--label", "dup");
      assertThat(ambiguous.exit()).as(ambiguous.toString()).isEqualTo(17);
      assertThat(ambiguous.err())
          .contains("error: ambiguous_label: the label 'dup' names 2 jobs: ")
          .contains(ids.get(0) + " (queued)", ids.get(1) + " (queued)");
      assertThat(JSON.readTree(ambiguous.out()).get("error").asText()).isEqualTo("ambiguous_label");
      Result unknown = sluice.run(verb, "--label", "no such label");
      assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(16);
      assertThat(unknown.err()).contains("error: unknown_label: ", "'no such label'");
      Result noId = sluice.run(verb, "r999");
      assertThat(noId.exit()).as(noId.toString()).isEqualTo(16);
      assertThat(noId.err()).contains("error: unknown_request: no job 'r999' is known");
    }

    assertThat(pool().queued()).extracting(Ticket::requestId).isEqualTo(ids);
    assertThat(gate.lastEventSequence()).as("no event").isEqualTo(before);
    assertThat(w1.isAlive()).isTrue();
    assertThat(w2.isAlive()).isTrue();
    assertThat(holder.isAlive()).isTrue();
  }

  @Test
  void cancelOfARunningRunIsRefusedAndPointsToKill() throws Exception {
    Process holder = running("busy", "echo ready; cat");
    String id = pool().holders().get(0).requestId();

    Result cancel = sluice.run("cancel", id);

    assertThat(cancel.exit()).as(cancel.toString()).isEqualTo(3);
    assertThat(cancel.err()).contains("error: wrong_state: ", id, "sluice kill " + id);
    assertThat(holder.isAlive()).isTrue();
    assertThat(pool().holders()).extracting(Ticket::requestId).containsExactly(id);
  }
}
