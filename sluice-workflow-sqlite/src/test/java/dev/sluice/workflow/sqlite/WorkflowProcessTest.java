/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.workflow.process.Effects;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
  private final WorkerProcesses workers = new WorkerProcesses();

  @AfterEach
  void killLeftovers() {
    workers.close();
  }

  @Test
  void twoWorkersFinishAThousandExecutionsRunningEachStepOnceAndNeverInParallel() throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process first = workers.start(store, log, 1000, "-");
    Process second = workers.start(store, log, 1000, "-");
    assertThat(workers.line(first)).isEqualTo("ready");
    assertThat(workers.line(second)).isEqualTo("ready");
    WorkerProcesses.go(first);
    WorkerProcesses.go(second);

    assertThat(workers.lineAfterProgress(first)).isEqualTo("done");
    assertThat(workers.lineAfterProgress(second)).isEqualTo("done");
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
    try (WorkflowRuntime reader = WorkerProcesses.reader(store)) {
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
    Process killed = workers.start(store, log, 1, "e-0");
    assertThat(workers.line(killed)).isEqualTo("ready");
    WorkerProcesses.go(killed);
    assertThat(workers.line(killed)).isEqualTo("blocked");
    killed.destroyForcibly();
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Process heir = workers.start(store, log, 1, "-");
    assertThat(workers.line(heir)).isEqualTo("ready");
    WorkerProcesses.go(heir);
    assertThat(workers.lineAfterProgress(heir)).isEqualTo("done");
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
    Process holder = workers.start(store, log, 1, "e-0");
    assertThat(workers.line(holder)).isEqualTo("ready");
    WorkerProcesses.go(holder);
    assertThat(workers.line(holder)).isEqualTo("blocked");

    Process other = workers.start(store, log, 2, "-");
    assertThat(workers.line(other)).isEqualTo("ready");
    WorkerProcesses.go(other);
    // e-1 is finished: the other worker's threads have claimed since, each looking at e-0's live
    // claim on the way.
    assertThat(workers.line(other)).isEqualTo("finished e-1");
    assertThat(Effects.read(log).of("e-0", "b")).containsExactly("e-0/b " + holder.pid());

    holder.destroyForcibly();
    assertThat(workers.lineAfterProgress(other)).isEqualTo("done");
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
    Process killed = workers.start(store, log, 1, "-", "2000");
    assertThat(workers.line(killed)).isEqualTo("ready");
    WorkerProcesses.go(killed);
    WorkerProcesses.awaitStatus(store, "e-0", ExecutionStatus.WAITING);
    killed.destroyForcibly();
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Process heir = workers.start(store, log, 1, "-", "2000");
    assertThat(workers.line(heir)).isEqualTo("ready");
    WorkerProcesses.go(heir);
    assertThat(workers.lineAfterProgress(heir)).isEqualTo("done");

    Effects effects = Effects.read(log);
    assertThat(effects.of("e-0", "a")).containsExactly("e-0/a " + killed.pid());
    assertThat(effects.of("e-0", "b")).containsExactly("e-0/b " + heir.pid());
    assertThat(effects.of("e-0", "c")).containsExactly("e-0/c " + heir.pid());
  }
}
