/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.local.CrashStages;
import dev.sluice.testkit.workflow.process.Effects;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker SIGKILLed while it holds the store's gate in the middle of a batch of units (written,
 * pulsed or committed, the gate not yet released) leaves a consistent store: another worker takes
 * the gate, takes the dead worker's claims over and finishes every execution, and a step whose
 * result was committed is never run again; only bodies whose commits died with the worker run
 * again, with their idempotency keys.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkflowCrashStageTest {
  private static final int EXECUTIONS = 20;

  /**
   * The killed worker's 20 submits are its first 20 writing batches; stop 6 batches into its run.
   */
  private static final int STOP_AT_ARRIVAL = EXECUTIONS + 6;

  @TempDir Path root;
  private final WorkerProcesses workers = new WorkerProcesses();

  @AfterEach
  void killLeftovers() {
    workers.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {CrashStages.BEFORE_PULSE, CrashStages.AFTER_PULSE, CrashStages.AFTER_COMMIT})
  void aWorkerKilledHoldingTheGateMidBatchLeavesAStoreTheNextFinishes(String stage)
      throws Exception {
    Path store = root.resolve("store");
    Path log = root.resolve("effects.log");
    Process killed =
        workers.start(
            List.of(
                "-Dsluice.test.stopAt=" + stage, "-Dsluice.test.stopAtArrival=" + STOP_AT_ARRIVAL),
            store,
            log,
            EXECUTIONS,
            "-");
    assertThat(workers.line(killed)).isEqualTo("ready");
    WorkerProcesses.go(killed);
    assertThat(workers.lineAfterProgress(killed)).isEqualTo("STOPPING " + stage);
    killed.destroyForcibly();
    assertThat(killed.waitFor(1, TimeUnit.MINUTES)).isTrue();
    Effects before = Effects.read(log);
    // What the killed worker left committed: the heir must run none of these steps again.
    Set<String> committed = committedSteps(store);

    Process heir = workers.start(store, log, EXECUTIONS, "-");
    assertThat(workers.line(heir)).isEqualTo("ready");
    WorkerProcesses.go(heir);
    assertThat(workers.lineAfterProgress(heir)).isEqualTo("done");
    assertThat(heir.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(heir.exitValue()).isZero();

    Effects after = Effects.read(log);
    String killedPid = Long.toString(killed.pid());
    String heirPid = Long.toString(heir.pid());
    for (int i = 0; i < EXECUTIONS; i++) {
      for (String key : List.of("a", "b", "c")) {
        String step = "e-" + i + "/" + key;
        List<String> effects = after.of("e-" + i, key);
        assertThat(effects).as("%s ran", step).isNotEmpty();
        if (committed.contains(step)) {
          assertThat(effects)
              .as("%s was committed before the kill", step)
              .containsExactly(step + " " + killedPid);
        } else if (effects.size() > 1) {
          // A body whose commit died with the killed worker (in the stopped batch, or waiting for
          // the next one on another worker thread) runs again, once, by the heir, with its key.
          assertThat(effects).containsExactly(step + " " + killedPid, step + " " + heirPid);
        }
      }
    }
    assertThat(before.pids()).as("the killed worker had run step bodies").contains(killedPid);
    assertThat(committed).as("the killed worker had committed steps").isNotEmpty();
    try (WorkflowRuntime reader = WorkerProcesses.reader(store)) {
      for (int i = 0; i < EXECUTIONS; i++) {
        Execution<String> e = reader.execution("e-" + i, String.class).orElseThrow();
        assertThat(e.status()).isEqualTo(ExecutionStatus.COMPLETED);
        assertThat(e.result(Duration.ZERO)).isEqualTo(i + ":abc");
      }
    }
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + store.resolve("workflows.db"));
        Statement st = db.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("ok");
    }
  }

  /** "EXECUTION/KEY" of each step with a recorded result, read straight from the file. */
  private static Set<String> committedSteps(Path store) throws Exception {
    Set<String> out = new HashSet<>();
    try (Connection db =
            DriverManager.getConnection("jdbc:sqlite:" + store.resolve("workflows.db"));
        Statement st = db.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT execution_id, step_key FROM wf_step WHERE outcome = 'value'")) {
      while (rs.next()) {
        out.add(rs.getString(1) + "/" + rs.getString(2));
      }
    }
    return out;
  }
}
