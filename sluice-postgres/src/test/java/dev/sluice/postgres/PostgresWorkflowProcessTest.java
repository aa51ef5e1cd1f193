/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.workflow.process.Effects;
import dev.sluice.testkit.workflow.process.WorkerJvms;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real worker JVMs on one PostgreSQL workflow store: they share the work without running a step
 * body twice, and a worker SIGKILLed inside a step is taken over by another JVM, which runs only
 * the step that had not committed again.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresWorkflowProcessTest {
  @TempDir Path root;
  private final TestDatabase db = TestDatabase.create();
  private final WorkerJvms jvms = new WorkerJvms();

  @AfterEach
  void cleanUp() throws Exception {
    jvms.close();
    db.close();
  }

  private Process start(Path log, int count, String block) throws Exception {
    Process p =
        jvms.start(
            PgWorkflowWorker.class,
            List.of(),
            List.of(TestDatabase.URL, db.schema(), log.toString(), Integer.toString(count), block));
    assertThat(jvms.line(p)).isEqualTo("ready");
    return p;
  }

  @Test
  void twoWorkersFinishTheExecutionsRunningEachStepOnce() throws Exception {
    Path log = root.resolve("effects.log");
    int count = 200;
    Process first = start(log, count, "-");
    Process second = start(log, count, "-");
    WorkerJvms.go(first);
    WorkerJvms.go(second);
    assertThat(jvms.lineAfterProgress(first)).isEqualTo("done");
    assertThat(jvms.lineAfterProgress(second)).isEqualTo("done");
    assertThat(first.waitFor(1, TimeUnit.MINUTES) && second.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(first.exitValue()).isZero();
    assertThat(second.exitValue()).isZero();

    Effects effects = Effects.read(log);
    for (int i = 0; i < count; i++) {
      for (String key : List.of("a", "b", "c")) {
        assertThat(effects.of("e-" + i, key)).as("side effects of e-%d step %s", i, key).hasSize(1);
      }
    }
  }

  @Test
  void aWorkerKilledInsideAStepIsTakenOverByAnotherThatRunsOnlyThatStepAgain() throws Exception {
    Path log = root.resolve("effects.log");
    Process killed = start(log, 1, "e-0");
    WorkerJvms.go(killed);
    assertThat(jvms.line(killed)).isEqualTo("blocked");
    killed.destroyForcibly(); // SIGKILL: no close, no goodbye
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();

    Process heir = start(log, 1, "-");
    WorkerJvms.go(heir);
    assertThat(jvms.lineAfterProgress(heir)).isEqualTo("done");
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
    Path log = root.resolve("effects.log");
    Process holder = start(log, 1, "e-0");
    WorkerJvms.go(holder);
    assertThat(jvms.line(holder)).isEqualTo("blocked");

    Process other = start(log, 2, "-");
    WorkerJvms.go(other);
    // e-1 is finished: the other worker's threads have claimed since, each looking at e-0's live
    // claim on the way.
    assertThat(jvms.line(other)).isEqualTo("finished e-1");
    assertThat(Effects.read(log).of("e-0", "b")).containsExactly("e-0/b " + holder.pid());

    holder.destroyForcibly();
    assertThat(jvms.lineAfterProgress(other)).isEqualTo("done");
    Effects effects = Effects.read(log);
    assertThat(effects.of("e-0", "a")).containsExactly("e-0/a " + holder.pid());
    assertThat(effects.of("e-0", "b"))
        .containsExactly("e-0/b " + holder.pid(), "e-0/b " + other.pid());
    assertThat(effects.of("e-0", "c")).containsExactly("e-0/c " + other.pid());
    assertThat(effects.of("e-1", "b")).hasSize(1);
  }
}
