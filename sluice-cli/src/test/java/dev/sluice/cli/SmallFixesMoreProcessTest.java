/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.Ticket;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rest of what a new user met (issue 14, item 12), each through the real command: no start FIFO
 * outlives a killed run, {@code diagnose} names a request once, a capacity that did not change is
 * not logged as a change, {@code acquire} under a finished request's key answers that request, and
 * the home's errors say why and what to do, call it the gate home, and keep parser text out.
 */
class SmallFixesMoreProcessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  final List<Long> groups = new ArrayList<>();

  @AfterEach
  void killGroups() throws Exception {
    for (long pgid : groups) {
      new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start().waitFor();
    }
  }

  private static List<String> runDirs(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("sluice-run-"))
          .toList();
    }
  }

  /** (a) The start FIFO's directory is gone once the command runs, so SIGKILL leaves none. */
  @Test
  void aRunKilledBySigkillLeavesNoStartFifoDirectory() throws Exception {
    Path home = tmp.resolve("home");
    Path temp = Files.createDirectory(tmp.resolve("java-tmp"));
    try (SluiceProcesses sluice = new SluiceProcesses(home);
        GateService gate = GateService.open(home)) {
      List<String> cmd =
          new ArrayList<>(sluice.command("run", "--", "sh", "-c", "echo ready; exec sleep 1000"));
      cmd.add(1, "-Djava.io.tmpdir=" + temp);
      Process run = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      try {
        BufferedReader out =
            new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        Ticket held = gate.status().get(0).holders().get(0);
        groups.add(held.process().pgid());
        assertThat(runDirs(temp)).as("no name while the command runs").isEmpty();

        run.destroyForcibly();
        assertThat(run.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(runDirs(temp)).as("nothing left by kill -9").isEmpty();
      } finally {
        run.destroyForcibly();
      }
    }
  }

  /**
   * (b) and (c): diagnose names each request once; setting the capacity a pool has logs nothing.
   */
  @Test
  void diagnoseNamesARequestOnceAndAnUnchangedCapacityIsNotLogged() throws Exception {
    Path home = tmp.resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(home);
        GateService gate = GateService.open(home)) {
      int same = gate.settings().defaultCapacity();
      Result created = sluice.run("pool", "set", "p", "--capacity", Integer.toString(same));
      assertThat(created.out()).as(created.toString()).contains("pool p created with capacity");
      Result unchanged = sluice.run("pool", "set", "p", "--capacity", Integer.toString(same));
      assertThat(unchanged.out())
          .as(unchanged.toString())
          .contains("pool p capacity " + same + ", unchanged");
      assertThat(sluice.run("pool", "set", "p", "--capacity", "1").exit()).isZero();
      List<String> changes =
          gate.events(0, 100).stream()
              .filter(e -> e.type().equals("capacity_changed"))
              .map(GateEvent::detail)
              .toList();
      List<String> expected = new ArrayList<>(List.of("new pool, capacity " + same));
      if (same != 1) {
        expected.add(same + " -> 1");
      }
      assertThat(changes).isEqualTo(expected);

      gate.acquire(new AcquireRequest("a", "hold", "p", 1, "holder", ""));
      String waiting =
          gate.acquire(new AcquireRequest("b", "wait", "p", 1, "", "")).ticket().requestId();
      Result d = sluice.run("diagnose");
      assertThat(d.exit()).as(d.toString()).isZero();
      String line =
          d.lines().stream().filter(l -> l.startsWith("head_waits")).findFirst().orElseThrow();
      assertThat(line.split("\\b" + waiting + "\\b", -1)).as(line).hasSize(2);
      assertThat(line).contains("pool p " + waiting + ": weight 1 waits: 0 of 1 free");
    }
  }

  /** (d) Asking again under a finished request's key answers that request, not a new one. */
  @Test
  void acquireUnderTheKeyOfAReleasedRequestAnswersThatRequest() throws Exception {
    Path home = tmp.resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(home).env("SLUICE_AGENT_ID", "ag")) {
      Result first = sluice.run("--json", "acquire", "--op", "job1");
      assertThat(first.exit()).as(first.toString()).isZero();
      JsonNode granted = JSON.readTree(first.out());
      String id = granted.get("requestId").asText();
      Result release = sluice.run("release", granted.get("permitToken").asText());
      assertThat(release.exit()).as(release.toString()).isZero();

      Result again = sluice.run("--json", "acquire", "--op", "job1");

      assertThat(again.exit()).as(again.toString()).isEqualTo(13);
      JsonNode answer = JSON.readTree(again.out());
      assertThat(answer.get("state").asText()).isEqualTo("conflict");
      assertThat(answer.get("requestId").asText()).isEqualTo(id);
      assertThat(answer.get("detail").asText())
          .contains("already named request " + id, "ended released (released)", "another --op");
      Result jobs = sluice.run("--json", "jobs");
      assertThat(JSON.readTree(jobs.out()).get("jobs")).as("nothing new was granted").isEmpty();
      Result other = sluice.run("acquire", "--op", "job2");
      assertThat(other.exit()).as("a new key is a new request").isZero();
    }
  }

  /** (e) and (g): a home that cannot be made says why, and calls itself the gate home. */
  @Test
  void aHomeThatCannotBeMadeSaysWhyAndIsCalledTheGateHome() throws Exception {
    try (SluiceProcesses sluice = new SluiceProcesses(Path.of("/proc/sluice"))) {
      Result r = sluice.run("status");
      assertThat(r.exit()).as(r.toString()).isEqualTo(4);
      assertThat(r.err())
          .contains("cannot create gate home /proc/sluice: no such file or directory")
          .contains("its parent /proc exists: that file system does not allow new entries there")
          .doesNotContain("pool directory");
    }
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (SluiceProcesses sluice = new SluiceProcesses(open)) {
      Result r = sluice.run("status");
      assertThat(r.exit()).as(r.toString()).isEqualTo(4);
      assertThat(r.err())
          .contains("gate home " + open.toRealPath() + " is writable by everyone")
          .doesNotContain("pool directory");
    }
    Path file = Files.writeString(tmp.resolve("file"), "x");
    try (SluiceProcesses sluice = new SluiceProcesses(file.resolve("home"))) {
      Result r = sluice.run("status");
      assertThat(r.exit()).as(r.toString()).isEqualTo(2);
      assertThat(r.err()).contains("its parent " + file + " is not a directory");
    }
  }

  /** (f) A damaged state row is named with its file and what to do; the parser's words stay out. */
  @Test
  void aDamagedStateRowSaysWhatToDoWithoutParserText() throws Exception {
    Path home = tmp.resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(home)) {
      assertThat(sluice.run("status").exit()).isZero();
      try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("gate.db"));
          Statement st = db.createStatement()) {
        st.executeUpdate("UPDATE gate_state SET state = 'x{not json', version = version + 1");
      }
      Result r = sluice.run("status");
      assertThat(r.exit()).as(r.toString()).isEqualTo(4);
      assertThat(r.err())
          .contains("gate home " + home.toRealPath())
          .contains("the gate's state in gate.db (table gate_state, version ", ") is damaged")
          .contains("nothing was changed", "Restore gate.db from a backup", "mv ")
          .doesNotContain("Unexpected character", "Source:", "column:");
    }
  }

  /** (h) A gate.db whose pages are damaged says what to do next. */
  @Test
  void aDamagedGateDbSaysWhatToDoNext() throws Exception {
    Path home = tmp.resolve("home");
    try (SluiceProcesses sluice = new SluiceProcesses(home)) {
      assertThat(sluice.run("status").exit()).isZero();
      Path db = home.resolve("gate.db");
      // Keep SQLite's 100-byte header, so the file is still taken for a database; ruin the schema.
      try (RandomAccessFile f = new RandomAccessFile(db.toFile(), "rw")) {
        byte[] junk = new byte[(int) Math.min(4096, f.length()) - 100];
        Arrays.fill(junk, (byte) 0x5a);
        f.seek(100);
        f.write(junk);
      }
      Result r = sluice.run("status");
      assertThat(r.exit()).as(r.toString()).isEqualTo(4);
      assertThat(r.err())
          .contains("gate home " + home.toRealPath() + ": gate.db is damaged")
          .contains("Restore gate.db from a backup, or move it aside to start an empty gate")
          .contains("mv " + home.toRealPath().resolve("gate.db") + "* ");
    }
  }

  /** (i) A number too large for its option names the allowed range, whatever the option. */
  @Test
  void aNumberTooLargeNamesTheAllowedRange() throws Exception {
    try (SluiceProcesses sluice = new SluiceProcesses(tmp.resolve("home"))) {
      Result weight = sluice.run("acquire", "--agent", "a", "--op", "o", "--weight", "99999999999");
      assertThat(weight.exit()).as(weight.toString()).isEqualTo(2);
      assertThat(weight.err()).contains("'99999999999' is not a whole number from 1 to 1000000");
      Result limit = sluice.run("events", "--limit", "99999999999");
      assertThat(limit.exit()).as(limit.toString()).isEqualTo(2);
      assertThat(limit.err()).contains("'99999999999' is not a whole number from 1 to 2147483647");
      Result since = sluice.run("events", "--since", "soon");
      assertThat(since.exit()).as(since.toString()).isEqualTo(2);
      assertThat(since.err()).contains("'soon' is not a whole number from 0 to");
    }
  }
}
