/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.workflow.process.Effects;
import dev.sluice.testkit.workflow.process.WorkerJvms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM stopped (SIGSTOP) inside a unit of work on the workflow store, holding the store's
 * exclusive lock in an open transaction, does not wedge the other JVMs: the server ends its idle
 * transaction (the store sets {@code idle_in_transaction_session_timeout} on every batch), and
 * another worker JVM submits and runs all its executions, each step once, while the first is still
 * stopped. Continued (SIGCONT), the stopped JVM's unit fails with nothing written. A hang fails by
 * the class's timeout.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StoppedWorkflowJvmTest {
  @TempDir Path root;
  private final TestDatabase db = TestDatabase.create();
  private final WorkerJvms jvms = new WorkerJvms();

  @AfterEach
  void cleanUp() throws Exception {
    jvms.close();
    db.close();
  }

  @Test
  void aJvmStoppedHoldingTheStoresLockLetsAnotherRunItsExecutions() throws Exception {
    Process holder =
        jvms.start(PgHoldingWorker.class, List.of(), List.of(TestDatabase.URL, db.schema()));
    assertThat(jvms.line(holder)).isEqualTo("ready");
    WorkerJvms.go(holder);
    assertThat(jvms.line(holder)).isEqualTo("holding");
    Signals.send("STOP", holder.pid());

    Path log = root.resolve("effects.log");
    int count = 20;
    Process worker =
        jvms.start(
            PgWorkflowWorker.class,
            List.of(),
            List.of(TestDatabase.URL, db.schema(), log.toString(), Integer.toString(count), "-"));
    assertThat(jvms.line(worker)).isEqualTo("ready");
    WorkerJvms.go(worker);
    assertThat(jvms.lineAfterProgress(worker)).isEqualTo("done");
    assertThat(Signals.stopped(holder.pid())).as("the holder is still stopped").isTrue();

    Signals.send("CONT", holder.pid());
    holder.getOutputStream().write("release\n".getBytes(StandardCharsets.UTF_8));
    holder.getOutputStream().flush();
    assertThat(jvms.line(holder)).startsWith("failed ");
    assertThat(jvms.line(holder)).isEqualTo("count 0");
    assertThat(holder.waitFor(1, TimeUnit.MINUTES) && worker.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(worker.exitValue()).isZero();

    Effects effects = Effects.read(log);
    for (int i = 0; i < count; i++) {
      for (String key : List.of("a", "b", "c")) {
        assertThat(effects.of("e-" + i, key)).as("side effects of e-%d step %s", i, key).hasSize(1);
      }
    }
  }
}
