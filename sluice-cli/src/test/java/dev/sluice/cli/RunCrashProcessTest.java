/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice run} killed with SIGKILL, through the real command: a slot stays held while the
 * command's process group lives and comes back after; a killed waiter leaves the queue at once.
 * Also: runs start in the order they arrived.
 */
class RunCrashProcessTest {
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
      new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start().waitFor();
    }
    gate.close();
  }

  @Test
  void aKilledRunKeepsItsSlotWhileTheGroupLivesAndFreesItAfter() throws Exception {
    Process holder =
        sluice.start("run", "--pool", "p", "--", "sh", "-c", "echo $$; exec sleep 600");
    long pgid = Long.parseLong(firstLine(holder));
    groups.add(pgid);
    // The command may print before its launcher has bound the permit to it; kill after that.
    awaitEvent("started");
    holder.destroyForcibly();
    assertThat(holder.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

    Ticket held = pool().holders().get(0);
    assertThat(held.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
    assertThat(held.process().pgid()).isEqualTo(pgid);

    Process next = sluice.start("run", "--pool", "p", "--", "echo", "next ran");
    awaitEvent("queued");
    assertThat(next.isAlive()).isTrue();
    assertThat(pool().holders()).extracting(Ticket::requestId).containsExactly(held.requestId());

    assertThat(new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).start().waitFor()).isZero();
    Result r = SluiceProcesses.finish(next);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("next ran");
    Ticket ended = gate.ticket(held.requestId()).orElseThrow();
    assertThat(ended.state()).isEqualTo(TicketState.RELEASED);
    assertThat(ended.endReason()).isEqualTo("process_exited");
  }

  @Test
  void aKilledWaiterLeavesTheQueueAtOnce() throws Exception {
    Process holder = sluice.start("run", "--pool", "p", "--", "sh", "-c", "echo up; read x");
    assertThat(firstLine(holder)).isEqualTo("up");
    Process waiter = sluice.start("run", "--pool", "p", "--", "echo", "never");
    String waiting = awaitEvent("queued").requestId();
    waiter.destroyForcibly();
    assertThat(waiter.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

    Ticket gone = gate.ticket(waiting).orElseThrow();
    assertThat(gone.state()).isEqualTo(TicketState.CANCELLED);
    assertThat(gone.endReason()).isEqualTo("owner_exited");
    assertThat(pool().queued()).isEmpty();

    holder.getOutputStream().write("done\n".getBytes(StandardCharsets.UTF_8));
    holder.getOutputStream().flush();
    assertThat(SluiceProcesses.finish(holder).exit()).isZero();
    assertThat(pool().used()).isZero();
  }

  @Test
  void runsStartInTheOrderTheyArrived() throws Exception {
    Process holder = sluice.start("run", "--pool", "p", "--", "sh", "-c", "echo up; read x");
    assertThat(firstLine(holder)).isEqualTo("up");
    Path log = work.resolve("order");
    List<Process> runs = new ArrayList<>();
    long seen = lastEvent();
    for (int i = 0; i < 4; i++) {
      runs.add(
          sluice.start(
              "run",
              "--pool",
              "p",
              "--label",
              "run-" + i,
              "--",
              "sh",
              "-c",
              "echo " + i + " >> '" + log + "'"));
      seen = awaitEvent("queued", seen).sequence();
    }
    holder.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    holder.getOutputStream().flush();
    for (Process p : runs) {
      assertThat(SluiceProcesses.finish(p).exit()).isZero();
    }
    assertThat(Files.readAllLines(log)).containsExactly("0", "1", "2", "3");
  }

  @Test
  void aRunKilledBetweenSpawnAndBindNeverRunsItsCommand() throws Exception {
    Path marker = work.resolve("ran");
    List<String> cmd =
        new ArrayList<>(
            sluice.command("run", "--pool", "p", "--", "sh", "-c", "echo ran > '" + marker + "'"));
    cmd.add(1, "-Dsluice.test.stopAt=spawned-before-bind");
    Process launcher = new ProcessBuilder(cmd).start();
    try {
      assertThat(firstLine(launcher)).isEqualTo("STOPPING spawned-before-bind");
      launcher.destroyForcibly();
      assertThat(launcher.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

      // Its claimed permit ends with it, and a later run goes through.
      Result next = sluice.run("run", "--pool", "p", "--", "echo", "next ran");
      assertThat(next.exit()).as(next.toString()).isZero();
      assertThat(pool().used()).isZero();
      // The held-back command saw its launcher's end instead of the go-ahead: it never ran.
      assertThat(marker).doesNotExist();
    } finally {
      // The held-back shell needs no cleanup: it ends by itself when it sees its launcher gone.
      launcher.destroyForcibly();
    }
  }

  @Test
  void aRunKilledAfterBindBeforeGoFreesItsSlotAndNeverRunsItsCommand() throws Exception {
    Path marker = work.resolve("ran");
    Path hold = work.resolve("hold");
    assertThat(new ProcessBuilder("mkfifo", hold.toString()).start().waitFor()).isZero();
    List<String> cmd =
        new ArrayList<>(
            sluice.command("run", "--pool", "p", "--", "sh", "-c", "echo ran > '" + marker + "'"));
    cmd.add(1, "-Dsluice.test.stopAt=bound-before-go");
    // The held-back shell waits on this FIFO before it opens its own, so it opens that only after
    // its launcher is dead: the widest form of the window, where no process holds the other end.
    cmd.add(1, "-Dsluice.test.holdShell=" + hold);
    Process launcher = new ProcessBuilder(cmd).start();
    try {
      assertThat(firstLine(launcher)).isEqualTo("STOPPING bound-before-go");
      Ticket held = pool().holders().get(0);
      assertThat(held.phase()).isEqualTo(PermitPhase.RUNNING_TRACKED);
      groups.add(held.process().pgid());
      launcher.destroyForcibly();
      assertThat(launcher.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

      CompletableFuture.runAsync(
              () -> {
                try {
                  Files.writeString(hold, "now\n");
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);

      // The group ends by itself, so the permit is freed and a later run goes through.
      Result next =
          sluice.run("run", "--pool", "p", "--queue-timeout", "90s", "--", "echo", "next ran");
      assertThat(next.exit()).as(next.toString()).isZero();
      assertThat(next.out()).contains("next ran");
      Ticket ended = gate.ticket(held.requestId()).orElseThrow();
      assertThat(ended.state()).isEqualTo(TicketState.RELEASED);
      assertThat(ended.endReason()).isEqualTo("process_exited");
      // The group is gone and never had the go-ahead: the command never ran.
      assertThat(marker).doesNotExist();
    } finally {
      launcher.destroyForcibly();
    }
  }

  @Test
  void aTrackedPidNowHeldByAProcessWithAnotherStartTimeCountsAsEnded() throws Exception {
    Process holder =
        sluice.start("run", "--pool", "p", "--", "sh", "-c", "echo $$; exec sleep 600");
    long pid = Long.parseLong(firstLine(holder));
    groups.add(pid);
    awaitEvent("started");
    holder.destroyForcibly();
    assertThat(holder.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    Ticket held = pool().holders().get(0);
    assertThat(held.process().pid()).isEqualTo(pid);
    assertThat(held.process().pgid()).isEqualTo(pid);

    // Pid reuse, made real without waiting for the kernel's pids to wrap: the store now says the
    // permit's process started at another time than the live process that has its pid and leads a
    // group of that id. No process is inside the gate meanwhile (the launcher is dead, this
    // test's own gate idle), so the edit needs no gate lock; the new version makes every reader
    // read it.
    long recorded = held.process().startTicks();
    restamp(recorded, recorded + 1);

    Result next =
        sluice.run("run", "--pool", "p", "--queue-timeout", "90s", "--", "echo", "next ran");
    assertThat(next.exit()).as(next.toString()).isZero();
    assertThat(next.out()).contains("next ran");
    Ticket ended = gate.ticket(held.requestId()).orElseThrow();
    assertThat(ended.state()).isEqualTo(TicketState.RELEASED);
    assertThat(ended.endReason()).isEqualTo("process_exited");
    // The gate stops counting the process, it never signals it: it still runs.
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
  }

  /** Rewrites the one tracked start time in the stored state, as a new state version. */
  private void restamp(long from, long to) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("gate.db"));
        Statement st = db.createStatement()) {
      String state;
      try (ResultSet rs = st.executeQuery("SELECT state FROM gate_state WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        state = rs.getString(1);
      }
      String field = "\"startTicks\":" + from;
      assertThat(state.split(field, -1)).as(state).hasSize(2);
      try (PreparedStatement update =
          db.prepareStatement(
              "UPDATE gate_state SET version = version + 1, state = ? WHERE id = 1")) {
        update.setString(1, state.replace(field, "\"startTicks\":" + to));
        assertThat(update.executeUpdate()).isOne();
      }
    }
  }

  private PoolStatus pool() {
    return gate.status().stream().filter(s -> s.name().equals("p")).findFirst().orElseThrow();
  }

  private long lastEvent() {
    List<GateEvent> all = gate.events(0, 100_000);
    return all.isEmpty() ? 0 : all.get(all.size() - 1).sequence();
  }

  private GateEvent awaitEvent(String type) throws InterruptedException {
    return awaitEvent(type, 0);
  }

  /** The next event of {@code type} after {@code since}, woken by the gate's pulse. */
  private GateEvent awaitEvent(String type, long since) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(10))) {
        if (e.type().equals(type)) {
          return e;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("no '" + type + "' event");
  }

  private static String firstLine(Process p) throws Exception {
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line).as("first line of " + p).isNotNull();
    return line;
  }
}
