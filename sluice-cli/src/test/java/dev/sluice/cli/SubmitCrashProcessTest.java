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
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submitted jobs when processes die, through the real command and real signals: a job outlives its
 * submitting shell and a submit killed mid-way; a job whose runner is SIGKILLed keeps its slot
 * while its group lives, frees it after, and {@code wait} answers that its status was lost.
 */
class SubmitCrashProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;
  GateService gate;
  final List<Long> groups = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home);
    assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
    gate = GateService.open(home);
  }

  @AfterEach
  void killLeftovers() throws Exception {
    sluice.close();
    for (long pgid : groups) {
      kill("KILL", -pgid);
    }
    gate.close();
  }

  @Test
  void aJobOutlivesItsSubmittingShellKilledWithItsWholeGroup() throws Exception {
    Fifo go = Fifo.make(work.resolve("go"));
    List<String> submit =
        sluice.command(
            "submit",
            "--pool",
            "p",
            "--",
            "sh",
            "-c",
            "echo one; read x < \"$0\"; echo two $x",
            go.path());
    // A shell in a session of its own, as a terminal's would be: it submits, then stays.
    String script =
        submit.stream().map(SubmitCrashProcessTest::quote).collect(Collectors.joining(" "));
    Process shell = new ProcessBuilder("setsid", "sh", "-c", script + "; exec sleep 600").start();
    long pgid = shell.pid();
    groups.add(pgid);
    String id = firstLine(shell);
    EventWait.awaitOf(gate, "started", id);

    kill("HUP", -pgid);
    kill("KILL", -pgid);
    assertThat(shell.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

    go.send("later");
    Result waited = sluice.run("wait", id);
    assertThat(waited.exit()).as(waited.toString()).isZero();
    assertThat(sluice.run("logs", id).out()).isEqualTo("one\ntwo later\n");
  }

  @Test
  void aSubmitKilledJustAfterStartingItsRunnerLeavesTheJobToRun() throws Exception {
    List<String> cmd =
        new ArrayList<>(sluice.command("submit", "--pool", "p", "--", "echo", "ran"));
    cmd.add(1, "-Dsluice.test.stopAt=submit-runner-started");
    Process submitter = new ProcessBuilder(cmd).start();
    assertThat(firstLine(submitter)).isEqualTo("STOPPING submit-runner-started");
    submitter.destroyForcibly();
    assertThat(submitter.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

    String id = EventWait.await(gate, "granted", "p").requestId();
    Result waited = sluice.run("wait", id);
    assertThat(waited.exit()).as(waited.toString()).isZero();
    assertThat(sluice.run("logs", id).out()).isEqualTo("ran\n");
  }

  @Test
  void aKilledRunnerKeepsTheSlotWhileItsJobRunsFreesItAfterAndWaitAnswersLost() throws Exception {
    JsonNode submitted = submitJson("sh", "-c", "echo up; exec sleep 600");
    String id = submitted.get("requestId").asText();
    // Killed once the command runs: its first line is in the log.
    Process follow = sluice.start("logs", "--follow", id);
    assertThat(firstLine(follow)).isEqualTo("up");
    kill("KILL", submitted.get("runnerPid").asLong());
    EventWait.awaitOf(gate, "launcher_gone", id);

    Ticket held = gate.ticket(id).orElseThrow();
    assertThat(held.state()).isEqualTo(TicketState.HELD);
    groups.add(held.process().pgid());
    Process next = sluice.start("run", "--pool", "p", "--", "echo", "next ran");
    EventWait.await(gate, "queued", "p");

    kill("KILL", -held.process().pgid());
    Result waited = sluice.run("--json", "wait", id);
    assertThat(waited.exit()).as(waited.toString()).isEqualTo(122);
    JsonNode lost = JSON.readTree(waited.out());
    assertThat(lost.get("state").asText()).isEqualTo("lost");
    assertThat(lost.has("exitStatus")).isFalse();
    Result ran = SluiceProcesses.finish(next);
    assertThat(ran.exit()).as(ran.toString()).isZero();
    assertThat(ran.out()).contains("next ran");
    assertThat(gate.ticket(id).orElseThrow().endReason()).isEqualTo("process_exited");
  }

  @Test
  void aRunnerKilledWhileItsJobWaitsTakesTheJobOutOfTheQueue() throws Exception {
    Fifo go = Fifo.make(work.resolve("go"));
    String holder = submitJson("sh", "-c", "read x < \"$0\"", go.path()).get("requestId").asText();
    JsonNode waiting = submitJson("echo", "never");
    assertThat(waiting.get("state").asText()).isEqualTo("queued");
    kill("KILL", waiting.get("runnerPid").asLong());

    Result waited = sluice.run("--json", "wait", waiting.get("requestId").asText());
    assertThat(waited.exit()).as(waited.toString()).isEqualTo(125);
    JsonNode answer = JSON.readTree(waited.out());
    assertThat(answer.get("state").asText()).isEqualTo("not_started");
    assertThat(answer.get("reason").asText()).contains("owner_exited");
    go.send("go");
    assertThat(sluice.run("wait", holder).exit()).isZero();
    assertThat(sluice.run("logs", waiting.get("requestId").asText()).out()).isEmpty();
  }

  private JsonNode submitJson(String... command) throws Exception {
    List<String> args = new ArrayList<>(List.of("--json", "submit", "--pool", "p", "--"));
    args.addAll(List.of(command));
    Result r = sluice.run(args.toArray(String[]::new));
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.out());
  }

  private static void kill(String signal, long target) throws Exception {
    new ProcessBuilder("kill", "-" + signal, "--", Long.toString(target)).start().waitFor();
  }

  private static String quote(String arg) {
    return "'" + arg.replace("'", "'\\''") + "'";
  }

  private static String firstLine(Process p) throws Exception {
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line).as("first line of " + p).isNotNull();
    return line;
  }
}
