/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * Real JVMs on one gate home, killed with SIGKILL at each stage of {@code sluice run}: what they
 * waited for or held comes back, except a permit whose process group still runs.
 */
class GateProcessTest {
  @TempDir Path tmp;
  private Path home;
  private final List<Process> workers = new ArrayList<>();
  private final List<Long> groups = new ArrayList<>();

  @BeforeEach
  void createHome() {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/setsid"))).as("setsid").isTrue();
    home = tmp.resolve("home");
    GateService.open(home, GateSettings.builder().defaultCapacity(1).build()).close();
  }

  @AfterEach
  void killEverything() throws Exception {
    workers.forEach(Process::destroyForcibly);
    for (long pgid : groups) {
      new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start().waitFor();
    }
  }

  @Test
  void aKilledWaiterLeavesTheQueue() throws Exception {
    try (GateService gate = GateService.open(home)) {
      gate.acquire(new AcquireRequest("test", "hold", "default", 1, "", ""));
      Process w = worker("queue", "default", "1");
      String id = line(w).split(" ")[1];
      assertThat(gate.ticket(id).orElseThrow().state()).isEqualTo(TicketState.QUEUED);
      kill(w);
      Ticket t = gate.ticket(id).orElseThrow();
      assertThat(t.state()).isEqualTo(TicketState.CANCELLED);
      assertThat(t.endReason()).isEqualTo("owner_exited");
      assertThat(gate.status().get(0).queued()).isEmpty();
    }
  }

  @Test
  void aKilledClaimerReturnsItsPermitAtOnce() throws Exception {
    Process w = worker("claim", "default", "1");
    String id = line(w).split(" ")[1];
    kill(w);
    try (GateService gate = GateService.open(home)) {
      AcquireOutcome next = gate.acquire(new AcquireRequest("test", "next", "default", 1, "", ""));
      assertThat(next).isInstanceOf(AcquireOutcome.Granted.class);
      assertThat(gate.ticket(id).orElseThrow().endReason()).isEqualTo("owner_exited");
    }
  }

  @Test
  void aKilledLauncherKeepsThePermitWhileItsGroupRunsAndFreesItAfter() throws Exception {
    Process w = worker("launch", "default", "1");
    String[] started = line(w).split(" ");
    String id = started[1];
    long pgid = Long.parseLong(started[2]);
    groups.add(pgid);
    kill(w);
    try (GateService gate = GateService.open(home)) {
      Ticket held = gate.ticket(id).orElseThrow();
      assertThat(held.state()).isEqualTo(TicketState.HELD);
      assertThat(held.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
      assertThat(gate.diagnose().findings())
          .anySatisfy(f -> assertThat(f.kind()).isEqualTo("launcher_gone"));
      AcquireRequest next = new AcquireRequest("test", "next", "default", 1, "", "");
      assertThat(gate.acquire(next, Duration.ZERO)).isInstanceOf(AcquireOutcome.Queued.class);

      Process killGroup = new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start();
      assertThat(killGroup.waitFor()).isZero();
      // The waiter re-checks a launcher-less group by itself (1 s, doubling); nothing else wakes
      // it.
      AcquireOutcome got = gate.acquire(next, Duration.ofSeconds(60));
      assertThat(got).isInstanceOf(AcquireOutcome.Granted.class);
      assertThat(gate.ticket(id).orElseThrow().endReason()).isEqualTo("process_exited");
    }
  }

  private Process worker(String stage, String pool, String weight) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(GateWorker.class.getName());
    cmd.addAll(List.of(stage, home.toString(), pool, weight));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    workers.add(p);
    return p;
  }

  private static String line(Process p) throws Exception {
    BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    assertThat(line).as("worker output").isNotNull();
    return line;
  }

  private static void kill(Process p) throws Exception {
    p.destroyForcibly();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
  }
}
