/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow.process;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.StepContext;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import dev.sluice.workflow.spi.WorkflowStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The body of a worker JVM of the workflow process tests, the same for every store: each store's
 * test has a {@code main} that builds its store and calls {@link #run}. The worker submits
 * executions {@code e-0 … e-(COUNT-1)} of a three-step workflow (idempotently, so several workers
 * may submit the same ones), prints {@code ready}, starts its runtime when it reads {@code go} on
 * stdin, runs them with the other workers of the store, prints {@code finished e-N} as each
 * finishes (newest first) and {@code done} once all have. Every step body appends one line to the
 * log as its side effect, {@code effect EXECUTION KEY IDEMPOTENCY-KEY PID}, and one when it ends,
 * {@code body EXECUTION KEY PID START-MICROS END-MICROS} (see {@link Effects}). If {@code block}
 * names an execution, step {@code b} of that execution prints {@code blocked} after its side effect
 * and never returns, so the test can SIGKILL the worker there. A {@code pauseMillis} above zero
 * puts a durable sleep between steps {@code a} and {@code b}.
 */
public final class ChainWorker {
  private ChainWorker() {}

  /**
   * Runs the worker on {@code store}; returns once every execution finished, or at once if stdin
   * does not say {@code go}.
   *
   * @param store the store under test
   * @param log the effects log
   * @param count how many executions
   * @param block the execution whose step {@code b} blocks, or {@code -}
   * @param pauseMillis a durable sleep between steps {@code a} and {@code b}, or 0
   * @throws Exception if an execution failed or timed out
   */
  public static void run(WorkflowStore store, Path log, int count, String block, long pauseMillis)
      throws Exception {
    Workflow<String, String> chain = chain(log, block, pauseMillis);
    try (WorkflowRuntime runtime =
        WorkflowRuntime.builder().store(store).register(chain).workers(4).build()) {
      List<Execution<String>> all = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        all.add(runtime.submit(chain, "e-" + i, i + ":"));
      }
      // Workers start together, so that one that started late still finds work to share.
      System.out.println("ready");
      System.out.flush();
      if (!"go".equals(new BufferedReader(new InputStreamReader(System.in)).readLine())) {
        return;
      }
      runtime.start();
      // Newest first, each announced: a test can see an execution finish while an older one is
      // still blocked elsewhere.
      for (int i = count - 1; i >= 0; i--) {
        String result = all.get(i).result(Duration.ofMinutes(5));
        if (!result.equals(i + ":abc")) {
          throw new IllegalStateException("e-" + i + " returned " + result);
        }
        System.out.println("finished e-" + i);
        System.out.flush();
      }
      System.out.println("done");
      System.out.flush();
    }
  }

  /**
   * The workflow a reader registers to look at the workers' executions; it runs nothing.
   *
   * @return the workflow, named as the workers' one
   */
  public static Workflow<String, String> readerChain() {
    return Workflow.define(
        "chain",
        String.class,
        String.class,
        (ctx, in) -> {
          throw new AssertionError("the reader runs nothing");
        });
  }

  private static Workflow<String, String> chain(Path log, String block, long pauseMillis) {
    return Workflow.define(
        "chain",
        String.class,
        String.class,
        (ctx, in) -> {
          String a = ctx.step("a", String.class, s -> body(log, s, in + "a", null));
          if (pauseMillis > 0) {
            ctx.sleep("pause", Duration.ofMillis(pauseMillis));
          }
          String b = ctx.step("b", String.class, s -> body(log, s, a + "b", block));
          return ctx.step("c", String.class, s -> body(log, s, b + "c", null));
        });
  }

  private static String body(Path log, StepContext step, String value, String block)
      throws IOException, InterruptedException {
    long start = micros();
    long pid = ProcessHandle.current().pid();
    append(
        log,
        "effect "
            + step.executionId()
            + " "
            + step.stepKey()
            + " "
            + step.idempotencyKey()
            + " "
            + pid);
    if (step.executionId().equals(block)) {
      System.out.println("blocked");
      System.out.flush();
      new CountDownLatch(1).await();
    }
    append(
        log,
        "body "
            + step.executionId()
            + " "
            + step.stepKey()
            + " "
            + pid
            + " "
            + start
            + " "
            + micros());
    return value;
  }

  private static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
  }

  /** One write per line with O_APPEND, so lines of several processes never interleave. */
  private static void append(Path log, String line) throws IOException {
    Files.write(
        log,
        (line + "\n").getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND,
        StandardOpenOption.WRITE);
  }
}
