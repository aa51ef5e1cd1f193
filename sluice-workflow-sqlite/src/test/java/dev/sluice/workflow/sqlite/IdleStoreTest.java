/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.local.Wakeups;
import dev.sluice.workflow.Execution;
import dev.sluice.workflow.ExecutionStatus;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runtimes with nothing due cost nothing: once an execution sleeps on a durable timer an hour away,
 * two started runtimes on the store let whole seconds pass without a transaction, a pulse-watcher
 * or a selector wake-up. A runtime that polled would never be quiet for a second.
 */
class IdleStoreTest {
  @TempDir Path root;

  @Test
  void runtimesWaitingForAFarTimerMakeNoWakeUps() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    Workflow<String, String> napper =
        Workflow.define(
            "napper",
            String.class,
            String.class,
            (ctx, in) -> {
              String a =
                  ctx.step(
                      "a",
                      String.class,
                      () -> {
                        ran.countDown();
                        return in;
                      });
              ctx.sleep("nap", Duration.ofHours(1));
              return a;
            });
    Path dir = root.resolve("store");
    try (WorkflowRuntime first = runtime(dir, napper);
        WorkflowRuntime second = runtime(dir, napper)) {
      first.start();
      second.start();
      Execution<String> e = first.submit(napper, "n-1", "x");
      assertThat(ran.await(1, TimeUnit.MINUTES)).isTrue();

      boolean quiet = false;
      for (int i = 0; i < 30 && !quiet; i++) {
        long before = Wakeups.count();
        quiet = Wakeups.awaitAfter(before, Duration.ofSeconds(1)) == before;
      }
      assertThat(quiet).as("a second without any wake-up within 30 s").isTrue();
      assertThat(e.status()).isEqualTo(ExecutionStatus.WAITING);
    }
  }

  private static WorkflowRuntime runtime(Path dir, Workflow<String, String> workflow) {
    return WorkflowRuntime.builder()
        .store(SqliteWorkflowStore.directory(dir))
        .register(workflow)
        .build();
  }
}
