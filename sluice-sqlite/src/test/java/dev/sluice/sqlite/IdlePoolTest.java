/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An idle pool costs nothing: no transaction, no pulse-watcher or selector wake-up, over a whole
 * window. The pool runs alone in a worker JVM ({@link IdleWorker}), so every wake-up counted there
 * is the pool's own, and one window is measured: a pool that woke periodically, at any period
 * shorter than the window, fails it.
 */
class IdlePoolTest extends ProcessTestCase {
  /** The measured quiet interval. */
  private static final long WINDOW_MILLIS = 3_000;

  @Test
  void anIdlePoolMakesNoWakeUpsInAWholeWindow() throws Exception {
    Process worker =
        workers.start("idle", root.resolve("p").toString(), "2", Long.toString(WINDOW_MILLIS));
    String report = WorkerProcesses.readLine(worker);
    assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("the worker ended").isTrue();
    assertThat(worker.exitValue()).as("the worker's exit status").isZero();
    assertThat(report).as("the worker's report").startsWith("IDLE ");
    List<String> fields = List.of(report.substring("IDLE ".length()).split(" "));
    assertThat(fields)
        .as("the waiter ran once the holder released, and the second lease is held")
        .contains("ran=1", "weight=1");
    assertThat(fields)
        .as(
            "no transaction, pulse-watcher or selector wake-up in %d ms of idleness (%s)",
            WINDOW_MILLIS, report)
        .contains("wakeups=0", "firstAfterMillis=-1");
    assertThat(fields)
        .as("the count is live: an inspection after the window is one transaction (%s)", report)
        .contains("inspect=1");
  }
}
