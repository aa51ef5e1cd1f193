/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.Ticket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code start --pid P} tracks P's whole process group, so it refuses a P that does not lead its
 * group (naming the pid, the group and what to pass) unless {@code --group} says that group is
 * meant.
 */
class StartGroupProcessTest {
  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;
  Process leader;
  long member;

  @BeforeEach
  void open() throws Exception {
    sluice = new SluiceProcesses(home);
    gate = GateService.open(home);
    // A group led by sh, with a sleep in it that does not lead it.
    leader = new ProcessBuilder("setsid", "sh", "-c", "sleep 1000 & echo $!; wait").start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(leader.getInputStream(), StandardCharsets.UTF_8));
    member = Long.parseLong(out.readLine().trim());
  }

  @AfterEach
  void close() {
    ProcessHandle.of(member).ifPresent(ProcessHandle::destroyForcibly);
    leader.destroyForcibly();
    sluice.close();
    gate.close();
  }

  private AcquireOutcome grant() {
    return gate.acquire(new AcquireRequest("a", "op", "default", 1, "", ""));
  }

  @Test
  void aPidThatDoesNotLeadItsGroupIsRefusedWithTheGroupAndWhatToPass() throws Exception {
    AcquireOutcome o = grant();
    String token = ((AcquireOutcome.Granted) o).permitToken();

    Result r = sluice.run("start", token, "--pid", Long.toString(member));
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err())
        .contains("--pid " + member + " does not lead its process group " + leader.pid())
        .contains("--group")
        .contains("setsid");
    Ticket t = gate.ticket(o.ticket().requestId()).orElseThrow();
    assertThat(t.phase()).as("a refusal changes nothing").isEqualTo(PermitPhase.CLAIMED);
  }

  @Test
  void groupTracksTheGroupOfAPidThatDoesNotLeadIt() throws Exception {
    AcquireOutcome o = grant();
    String token = ((AcquireOutcome.Granted) o).permitToken();

    Result r = sluice.run("start", token, "--pid", Long.toString(member), "--group");
    assertThat(r.exit()).as(r.toString()).isZero();
    Ticket t = gate.ticket(o.ticket().requestId()).orElseThrow();
    assertThat(t.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
    assertThat(t.process().pgid()).isEqualTo(leader.pid());
  }

  @Test
  void theLeadersPidNeedsNoFlag() throws Exception {
    AcquireOutcome o = grant();
    String token = ((AcquireOutcome.Granted) o).permitToken();

    Result r = sluice.run("start", token, "--pid", Long.toString(leader.pid()));
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(gate.ticket(o.ticket().requestId()).orElseThrow().process().pgid())
        .isEqualTo(leader.pid());
  }
}
