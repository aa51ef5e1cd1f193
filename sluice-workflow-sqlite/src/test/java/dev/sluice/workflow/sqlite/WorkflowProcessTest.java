/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.ExecutionRecord;
import dev.sluice.workflow.spi.WorkflowSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real worker JVMs on one SQLite workflow store: they share the work without running a step body of
 * one execution twice or at overlapping times, and a SIGKILLed worker's execution is finished by
 * another, re-running only the step that had not committed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WorkflowProcessTest {
  @TempDir Path root;
  private final List<Process> started = new ArrayList<>();
  private final Map<Process, BufferedReader> outputs = new HashMap<>();

  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
  }

  @Test
  void twoWorkersFinishAThousandExecutionsRunningEachStepOnceAndNeverInParallel() throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process first = start(store, log, 1000, "-");
    Process second = start(store, log, 1000, "-");
    assertThat(line(first)).isEqualTo("ready");
    assertThat(line(second)).isEqualTo("ready");
    go(first);
    go(second);

    assertThat(lineAfterProgress(first)).isEqualTo("done");
    assertThat(lineAfterProgress(second)).isEqualTo("done");
    assertThat(first.waitFor(1, TimeUnit.MINUTES) && second.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(first.exitValue()).isZero();
    assertThat(second.exitValue()).isZero();

    Effects effects = Effects.read(log);
    for (int i = 0; i < 1000; i++) {
      for (String key : List.of("a", "b", "c")) {
        assertThat(effects.of("e-" + i, key)).as("side effects of e-%d step %s", i, key).hasSize(1);
      }
      List<long[]> bodies = effects.bodies("e-" + i);
      assertThat(bodies).hasSize(3);
      for (int k = 1; k < bodies.size(); k++) {
        assertThat(bodies.get(k)[0])
            .as("e-%d: a step body started before the previous one ended", i)
            .isGreaterThanOrEqualTo(bodies.get(k - 1)[1]);
      }
    }
    assertThat(effects.pids()).as("both workers ran step bodies").hasSize(2);
    try (WorkflowRuntime reader = reader(store)) {
      for (int i = 0; i < 1000; i++) {
        Execution<String> e = reader.execution("e-" + i, String.class).orElseThrow();
        assertThat(e.status()).isEqualTo(ExecutionStatus.COMPLETED);
        assertThat(e.result(Duration.ofSeconds(5))).isEqualTo(i + ":abc");
      }
    }
  }

  @Test
  void aWorkerKilledInsideAStepLeavesItToAnotherThatRunsOnlyThatStepAgain() throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process killed = start(store, log, 1, "e-0");
    assertThat(line(killed)).isEqualTo("ready");
    go(killed);
    assertThat(line(killed)).isEqualTo("blocked");
    killed.destroyForcibly();
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Process heir = start(store, log, 1, "-");
    assertThat(line(heir)).isEqualTo("ready");
    go(heir);
    assertThat(lineAfterProgress(heir)).isEqualTo("done");
    assertThat(heir.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Effects effects = Effects.read(log);
    String killedPid = Long.toString(killed.pid());
    String heirPid = Long.toString(heir.pid());
    assertThat(effects.of("e-0", "a")).containsExactly("e-0/a " + killedPid);
    assertThat(effects.of("e-0", "b")).containsExactly("e-0/b " + killedPid, "e-0/b " + heirPid);
    assertThat(effects.of("e-0", "c")).containsExactly("e-0/c " + heirPid);
  }

  @Test
  void aLiveWorkersClaimIsNotTakenOverAndItsDeathHandsItToTheWorkerAlreadyRunning()
      throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process holder = start(store, log, 1, "e-0");
    assertThat(line(holder)).isEqualTo("ready");
    go(holder);
    assertThat(line(holder)).isEqualTo("blocked");

    Process other = start(store, log, 2, "-");
    assertThat(line(other)).isEqualTo("ready");
    go(other);
    // e-1 is finished: the other worker's threads have claimed since, each looking at e-0's live
    // claim on the way.
    assertThat(line(other)).isEqualTo("finished e-1");
    assertThat(Effects.read(log).of("e-0", "b")).containsExactly("e-0/b " + holder.pid());

    holder.destroyForcibly();
    assertThat(lineAfterProgress(other)).isEqualTo("done");
    Effects effects = Effects.read(log);
    assertThat(effects.of("e-0", "a")).containsExactly("e-0/a " + holder.pid());
    assertThat(effects.of("e-0", "b"))
        .containsExactly("e-0/b " + holder.pid(), "e-0/b " + other.pid());
    assertThat(effects.of("e-0", "c")).containsExactly("e-0/c " + other.pid());
    // e-1 ran once, on whichever worker had a free thread (the holder has three besides e-0's).
    assertThat(effects.of("e-1", "b")).hasSize(1);
  }

  @Test
  void aWorkerKilledBetweenStepsLeavesTheRestToAnotherWithoutRepeatingTheFirst() throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process killed = start(store, log, 1, "-", "2000");
    assertThat(line(killed)).isEqualTo("ready");
    go(killed);
    awaitStatus(store, "e-0", ExecutionStatus.WAITING);
    killed.destroyForcibly();
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Process heir = start(store, log, 1, "-", "2000");
    assertThat(line(heir)).isEqualTo("ready");
    go(heir);
    assertThat(lineAfterProgress(heir)).isEqualTo("done");

    Effects effects = Effects.read(log);
    assertThat(effects.of("e-0", "a")).containsExactly("e-0/a " + killed.pid());
    assertThat(effects.of("e-0", "b")).containsExactly("e-0/b " + heir.pid());
    assertThat(effects.of("e-0", "c")).containsExactly("e-0/c " + heir.pid());
  }

  /**
   * Waits until the execution has {@code status}, looking again on each change the store announces
   * (its pulse), not on a timer.
   */
  private static void awaitStatus(Path store, String id, ExecutionStatus status) throws Exception {
    Semaphore changes = new Semaphore(0);
    try (WorkflowSession watcher = SqliteWorkflowStore.directory(store).open()) {
      watcher.onChange(changes::release);
      while (true) {
        Optional<ExecutionStatus> now =
            watcher.transact(tx -> tx.execution(id).map(ExecutionRecord::status));
        if (now.equals(Optional.of(status))) {
          return;
        }
        assertThat(changes.tryAcquire(1, TimeUnit.MINUTES))
            .as("%s reaches %s (last seen %s)", id, status, now)
            .isTrue();
        changes.drainPermits();
      }
    }
  }

  private WorkflowRuntime reader(Path store) {
    Workflow<String, String> chain =
        Workflow.define(
            "chain",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new AssertionError("the reader runs nothing");
            });
    return WorkflowRuntime.builder()
        .store(SqliteWorkflowStore.directory(store))
        .register(chain)
        .build();
  }

  private Process start(Path store, Path log, int count, String block, String... more)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(WorkflowWorker.class.getName());
    cmd.addAll(List.of(store.toString(), log.toString(), Integer.toString(count), block));
    cmd.addAll(List.of(more));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    outputs.put(
        p, new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
    return p;
  }

  private static void go(Process p) throws IOException {
    p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().flush();
  }

  /** The worker's next line other than a {@code finished} progress line. */
  private String lineAfterProgress(Process p) throws IOException {
    String l = line(p);
    while (l != null && l.startsWith("finished ")) {
      l = line(p);
    }
    return l;
  }

  /** The worker's next line of output; blocks until it prints one (the event itself). */
  private String line(Process p) throws IOException {
    return outputs.get(p).readLine();
  }

  /** The lines the workers' step bodies appended. */
  private record Effects(List<String[]> lines) {
    static Effects read(Path log) throws IOException {
      List<String[]> lines = new ArrayList<>();
      for (String l : Files.readAllLines(log)) {
        lines.add(l.split(" "));
      }
      return new Effects(lines);
    }

    /** "IDEMPOTENCY-KEY PID" of each side effect of one step, in the order they happened. */
    List<String> of(String execution, String key) {
      List<String> out = new ArrayList<>();
      for (String[] l : lines) {
        if (l[0].equals("effect") && l[1].equals(execution) && l[2].equals(key)) {
          out.add(l[3] + " " + l[4]);
        }
      }
      return out;
    }

    /** [start, end] of each finished body of one execution, by start. */
    List<long[]> bodies(String execution) {
      List<long[]> out = new ArrayList<>();
      for (String[] l : lines) {
        if (l[0].equals("body") && l[1].equals(execution)) {
          out.add(new long[] {Long.parseLong(l[4]), Long.parseLong(l[5])});
        }
      }
      out.sort(Comparator.comparingLong(b -> b[0]));
      return out;
    }

    Set<String> pids() {
      Set<String> out = new HashSet<>();
      for (String[] l : lines) {
        if (l[0].equals("body")) {
          out.add(l[3]);
        }
      }
      return out;
    }
  }
}
