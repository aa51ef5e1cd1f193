/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.cli.SluiceProcesses.Result;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
 * What a waiting {@code sluice run} shows: on a terminal one live line on stderr (pool, queue
 * position, holders, time waited), redrawn in place and erased before the command's output (with
 * {@code --json}: nothing); off a terminal one line when it starts waiting and one when it gets its
 * slot (with {@code --quiet}: nothing but the command's own output).
 */
class RunWaitLineProcessTest {
  /** Back to the line's start, then clear to its end: how the wait line is redrawn and erased. */
  static final String ERASE = "\r\033[K";

  static final String WAITING = "sluice: waiting for pool ";

  @TempDir Path home;
  SluiceProcesses sluice;
  GateService gate;
  final List<Process> started = new ArrayList<>();

  @BeforeEach
  void open() {
    sluice = new SluiceProcesses(home);
  }

  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
    sluice.close();
    if (gate != null) {
      gate.close();
    }
  }

  @Test
  void onATerminalTheWaitLineNamesPoolPositionAndHoldersThenGivesWayToTheCommand()
      throws Exception {
    assumeTrue(PseudoTerminal.available(), "no pseudo-terminal: util-linux script is missing");
    Process holder = holdPool("tty");
    Process tty =
        pty(
            sluice.command(
                "run", "--pool", "tty", "--label", "waiter", "--", "echo", "ran-after-wait"));
    LiveOutput screen = new LiveOutput(tty.getInputStream());

    screen.await(WAITING + "tty: queue position 1, holders 1 (1/1 used), ");
    // Live: drawn again (once a second) while the pool stays full.
    screen.awaitCount(ERASE + WAITING + "tty", 2);
    assertThat(screen.text()).doesNotContain("ran-after-wait");

    release(holder);
    assertThat(tty.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("the waiting run ends once the holder has: %s", screen)
        .isTrue();
    screen.drained();
    assertThat(tty.exitValue()).as(screen.toString()).isZero();

    String text = screen.text();
    int output = text.indexOf("ran-after-wait");
    assertThat(output).as(screen.toString()).isPositive();
    String waiting = text.substring(text.indexOf(WAITING), output);
    assertThat(waiting)
        .as("one line, redrawn in place and never ended: %s", screen)
        .doesNotContain("\n")
        .containsPattern("holders 1 \\(1/1 used\\), \\d+(\\.\\d)?m?s")
        .endsWith(ERASE);
    assertThat(LiveOutput.count(text, WAITING))
        .as("every drawing starts at the line's start on a cleared line")
        .isEqualTo(LiveOutput.count(text, ERASE + WAITING));
    assertThat(text.substring(output)).doesNotContain(WAITING);
  }

  @Test
  void onATerminalWithJsonNothingIsDrawnWhileWaiting() throws Exception {
    assumeTrue(PseudoTerminal.available(), "no pseudo-terminal: util-linux script is missing");
    Process holder = holdPool("tty");
    Process tty =
        pty(sluice.command("--json", "run", "--pool", "tty", "--", "echo", "ran-after-wait"));
    LiveOutput screen = new LiveOutput(tty.getInputStream());
    awaitQueued("tty");

    release(holder);
    assertThat(tty.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS))
        .as("the waiting run ends once the holder has: %s", screen)
        .isTrue();
    screen.drained();
    assertThat(tty.exitValue()).as(screen.toString()).isZero();
    assertThat(screen.text()).contains("ran-after-wait").doesNotContain(WAITING, ERASE);
  }

  @Test
  void offATerminalAWaitingRunLogsOneLineWhenItWaitsAndOneWhenItGetsItsSlot() throws Exception {
    Result r = runAfterWaiting("pipe");
    assertThat(r.out()).as(r.toString()).isEqualTo("first\nlast, no newline");
    List<String> lines = r.err().lines().toList();
    assertThat(lines).as(r.toString()).hasSize(3);
    assertThat(lines.get(0))
        .as("pool, position and the holder by its label")
        .matches(
            "sluice: waiting for pool pipe: queue position 1, held by \"holder\" \\(r\\d+\\) \\(1/1 used\\)");
    assertThat(lines.get(1)).matches("sluice: got a slot in pool pipe after \\d+(\\.\\d)?m?s");
    assertThat(lines.get(2)).isEqualTo("second");
    assertThat(r.err()).doesNotContain(ERASE);
  }

  @Test
  void withJsonOffATerminalTheWaitLinesGoToStderrAndStdoutIsTheCommands() throws Exception {
    Result r = runAfterWaiting("pipe", "--json");
    assertThat(r.out()).as(r.toString()).isEqualTo("first\nlast, no newline");
    assertThat(r.err()).as(r.toString()).startsWith(WAITING + "pipe").endsWith("second\n");
  }

  @Test
  void offATerminalWithQuietTheWaitingRunPrintsOnlyTheCommandsOutput() throws Exception {
    assertOnlyTheCommandsOutputAfterWaiting("pipe", "--quiet");
  }

  @Test
  void withJsonAndQuietOffATerminalTheWaitingRunPrintsOnlyTheCommandsOutput() throws Exception {
    assertOnlyTheCommandsOutputAfterWaiting("pipe", "--json", "--quiet");
  }

  @Test
  void theQuickParserAndPicocliBothTakeQuiet() throws Exception {
    // The short form, read by the fast parser (QuickRun) as picocli reads it.
    assertOnlyTheCommandsOutputAfterWaiting("pipe", "-q");
  }

  private void assertOnlyTheCommandsOutputAfterWaiting(String pool, String... flags)
      throws Exception {
    Result r = runAfterWaiting(pool, flags);
    assertThat(r.out()).as(r.toString()).isEqualTo("first\nlast, no newline");
    assertThat(r.err()).as(r.toString()).isEqualTo("second\n");
  }

  /** A run (with {@code flags}: global ones first, then run's) that waits behind a holder. */
  private Result runAfterWaiting(String pool, String... flags) throws Exception {
    Process holder = holdPool(pool);
    List<String> args = new ArrayList<>();
    List<String> runFlags = new ArrayList<>();
    for (String f : flags) {
      (f.equals("--json") ? args : runFlags).add(f);
    }
    args.add("run");
    args.addAll(runFlags);
    args.addAll(
        List.of(
            "--pool",
            pool,
            "--",
            "sh",
            "-c",
            "echo first; echo second >&2; printf 'last, no newline'"));
    Process waiter = sluice.start(args.toArray(String[]::new));
    CompletableFuture<Void> firstLine = new CompletableFuture<>();
    CompletableFuture<String> err = collect(waiter.getErrorStream(), firstLine);
    if (runFlags.contains("--quiet") || runFlags.contains("-q")) {
      awaitQueued(pool);
    } else {
      // The holder leaves only once the wait line is out, so the line can name it.
      firstLine.get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    release(holder);
    waiter.getOutputStream().close();
    CompletableFuture<String> out = SluiceProcesses.drain(waiter.getInputStream());
    assertThat(waiter.waitFor(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    Result r =
        new Result(
            waiter.exitValue(),
            out.get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS),
            err.get(SluiceProcesses.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    assertThat(r.exit()).as(r.toString()).isZero();
    return r;
  }

  /**
   * Everything {@code in} gives until its end; {@code firstLine} completes at its first newline.
   */
  private static CompletableFuture<String> collect(
      InputStream in, CompletableFuture<Void> firstLine) {
    return CompletableFuture.supplyAsync(
        () -> {
          StringBuilder text = new StringBuilder();
          try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            for (int c = r.read(); c != -1; c = r.read()) {
              text.append((char) c);
              if (c == '\n') {
                firstLine.complete(null);
              }
            }
            return text.toString();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } finally {
            firstLine.completeExceptionally(
                new AssertionError("stderr ended without a line: " + text));
          }
        });
  }

  /**
   * Sets {@code pool}'s capacity to 1 and fills it with a run whose command lasts until its stdin
   * (this test's pipe) closes; returns once that command runs.
   */
  private Process holdPool(String pool) throws Exception {
    Result set = sluice.run("pool", "set", pool, "--capacity", "1");
    assertThat(set.exit()).as(set.toString()).isZero();
    Process holder =
        sluice.start(
            "run", "--pool", pool, "--label", "holder", "--", "sh", "-c", "echo holding; cat");
    BufferedReader out =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("holding");
    return holder;
  }

  /** Ends the holder's command (its stdin closes) and checks that its run ended well. */
  private static void release(Process holder) throws Exception {
    Result r = SluiceProcesses.finish(holder);
    assertThat(r.exit()).as(r.toString()).isZero();
  }

  private Process pty(List<String> command) throws Exception {
    Process p = PseudoTerminal.start(PseudoTerminal.shellLine(command));
    started.add(p);
    return p;
  }

  /** Waits (on the gate's event feed, no polling) until a request has queued in {@code pool}. */
  private void awaitQueued(String pool) throws InterruptedException {
    if (gate == null) {
      gate = GateService.open(home);
    }
    long since = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(10))) {
        if (e.type().equals("queued") && e.pool().equals(pool)) {
          return;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("nothing queued in pool " + pool);
  }
}
