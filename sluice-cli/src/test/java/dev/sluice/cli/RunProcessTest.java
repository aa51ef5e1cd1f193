/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice run} through the real command: capacity, exit statuses, signals, release. */
class RunProcessTest {
  @TempDir Path home;
  @TempDir Path work;
  SluiceProcesses sluice;

  @BeforeEach
  void processes() {
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void killLeftovers() {
    sluice.close();
  }

  @Test
  void aPlainRunLoadsNeitherPicocliNorJline() throws Exception {
    Path classes = work.resolve("classes.log");
    assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
    List<String> cmd = new ArrayList<>(sluice.command("run", "--pool", "p", "--", "true"));
    cmd.add(1, "-Xlog:class+load=info:file=" + classes);
    Process p = new ProcessBuilder(cmd).start();
    Result r = SluiceProcesses.finish(p);
    assertThat(r.exit()).as(r.toString()).isZero();
    String loaded = Files.readString(classes);
    assertThat(loaded).contains("dev.sluice.cli.command.QuickRun");
    assertThat(loaded).doesNotContain(" picocli.").doesNotContain(" org.jline.");

    // Help is picocli's.
    Result help = sluice.run("run", "--help");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("Usage: sluice run");
  }

  @Test
  void concurrentRunsNeverExceedCapacityByTheirOwnClocks() throws Exception {
    assertThat(sluice.run("pool", "set", "p", "--capacity", "2").exit()).isZero();
    Path log = work.resolve("log");
    String script =
        "echo S $$ $(date +%s%N) >> '"
            + log
            + "'; sleep 0.2; echo E $$ $(date +%s%N) >> '"
            + log
            + "'";
    List<Process> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      runs.add(sluice.start("run", "--pool", "p", "--", "sh", "-c", script));
    }
    for (Process p : runs) {
      Result r = SluiceProcesses.finish(p);
      assertThat(r.exit()).as(r.toString()).isZero();
    }
    record Mark(long at, int delta) {}
    List<Mark> marks = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      String[] f = line.split(" ");
      marks.add(new Mark(Long.parseLong(f[2]), f[0].equals("S") ? 1 : -1));
    }
    assertThat(marks).hasSize(12);
    // At equal times an end counts before a start: the slot was free by then.
    marks.sort(Comparator.comparingLong(Mark::at).thenComparingInt(Mark::delta));
    int running = 0;
    int most = 0;
    for (Mark m : marks) {
      running += m.delta();
      most = Math.max(most, running);
    }
    assertThat(most).isBetween(1, 2);
    assertThat(holders("p")).isZero();
  }

  @Test
  void exitStatusIsTheCommands() throws Exception {
    Result r = sluice.run("run", "--", "sh", "-c", "echo out; exit 7");
    assertThat(r.exit()).as(r.toString()).isEqualTo(7);
    assertThat(r.out()).isEqualTo("out\n");
    assertThat(holders("default")).isZero();
  }

  @Test
  void aCommandKilledBySigtermExits143() throws Exception {
    Result r = sluice.run("run", "--", "sh", "-c", "kill -TERM $$");
    assertThat(r.exit()).as(r.toString()).isEqualTo(143);
  }

  @Test
  void aMissingCommandExits127() throws Exception {
    Result r = sluice.run("run", "--", work.resolve("no-such-command").toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(127);
    assertThat(holders("default")).isZero();
  }

  @Test
  void sigintReachesTheWholeGroupAndTheRunStillReleases() throws Exception {
    assumeFalse(sigintIgnored(), "SIGINT is ignored in this environment; it cannot be trapped");
    Path marks = work.resolve("marks");
    Path inner = work.resolve("inner.sh");
    Files.writeString(
        inner,
        "trap 'echo inner-got-int >> \"$1\"; exit 3' INT\n"
            + "echo ready\n"
            + "while :; do sleep 1; done\n");
    // The leader traps INT too (so it outlives its child), waits, and records what it saw.
    Path leader = work.resolve("leader.sh");
    Files.writeString(
        leader,
        "trap 'echo leader-got-int >> \"$2\"' INT\n"
            + "sh \"$1\" \"$2\"\n"
            + "echo leader-saw-$? >> \"$2\"\n");
    Process p =
        sluice.start("run", "--", "sh", leader.toString(), inner.toString(), marks.toString());
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("ready");
    assertThat(new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor())
        .isZero();
    Result r = SluiceProcesses.finish(p);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(Files.readAllLines(marks)).contains("inner-got-int", "leader-saw-3");
    assertThat(holders("default")).isZero();
  }

  @Test
  void theRunningCommandIsTrackedAsItsOwnGroupAndSigtermIsForwarded() throws Exception {
    Process p = sluice.start("run", "--label", "tracked", "--", "sh", "-c", "echo ready; sleep 60");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("ready");
    JsonNode holder = pool("default").get("holders").get(0);
    assertThat(holder.get("label").asText()).isEqualTo("tracked");
    assertThat(holder.get("phase").asText()).isEqualTo("running_tracked");
    JsonNode process = holder.get("process");
    assertThat(process.get("pgid").asLong()).isEqualTo(process.get("pid").asLong());
    assertThat(process.get("pid").asLong()).isNotEqualTo(p.pid());
    assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor())
        .isZero();
    Result r = SluiceProcesses.finish(p);
    assertThat(r.exit()).as(r.toString()).isEqualTo(143);
    assertThat(holders("default")).isZero();
  }

  @Test
  void queueTimeoutExits124AndLeavesNoRequestBehind() throws Exception {
    assertThat(sluice.run("pool", "set", "q", "--capacity", "1").exit()).isZero();
    Result holder = sluice.run("--agent", "h", "acquire", "--pool", "q", "--op", "hold");
    assertThat(holder.exit()).as(holder.toString()).isZero();
    Result r = sluice.run("run", "--pool", "q", "--queue-timeout", "300ms", "--", "true");
    assertThat(r.exit()).as(r.toString()).isEqualTo(124);
    assertThat(r.err()).contains("no capacity in pool q");
    JsonNode pool = pool("q");
    assertThat(pool.get("queued").asInt()).isZero();
  }

  @Test
  void aRefusalBeforeTheSpawnExits125() throws Exception {
    assertThat(sluice.run("pool", "set", "small", "--capacity", "1").exit()).isZero();
    Path touched = work.resolve("touched");
    Result r =
        sluice.run("run", "--pool", "small", "--weight", "2", "--", "touch", touched.toString());
    assertThat(r.exit()).as(r.toString()).isEqualTo(125);
    assertThat(r.err()).contains("error: weight_exceeds_capacity");
    assertThat(touched).doesNotExist();
  }

  @Test
  void everyUsageErrorOfRunExits125AndRunsNothing() throws Exception {
    Path touched = work.resolve("touched");
    String touch = touched.toString();
    List<List<String>> bad =
        List.of(
            List.of("run", "--weight", "x", "--", "touch", touch),
            List.of("run", "--weight", "0", "--", "touch", touch),
            List.of("run", "--weight", "99999999999", "--", "touch", touch),
            List.of("run", "--queue-timeout", "soon", "--", "touch", touch),
            List.of("run", "--frobnicate", "--", "touch", touch),
            List.of("--frobnicate", "run", "--", "touch", touch),
            List.of("run"));
    for (List<String> args : bad) {
      Result r = sluice.run(args.toArray(String[]::new));
      assertThat(r.exit()).as(args + ": " + r).isEqualTo(125);
      assertThat(r.err()).as(args + ": " + r).startsWith("error: usage: ");
    }
    assertThat(touched).doesNotExist();
    // Other verbs keep 2, and --help documents both.
    assertThat(sluice.run("status", "--frobnicate").exit()).isEqualTo(2);
    Result help = sluice.run("--help");
    assertThat(help.out())
        .containsPattern("(?m)^  2 +all but run, wait +usage")
        .containsPattern("(?m)^  125 +run, wait +usage error");
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

  private int holders(String name) throws Exception {
    return pool(name).get("holders").size();
  }

  /** Whether this JVM (and so every process it starts) ignores SIGINT. */
  private static boolean sigintIgnored() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0;
      }
    }
    return false;
  }
}
