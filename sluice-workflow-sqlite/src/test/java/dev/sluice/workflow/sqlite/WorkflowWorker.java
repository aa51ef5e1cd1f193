/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.StepContext;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
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
 * A worker JVM of the workflow process tests. Arguments: {@code STORE LOG COUNT BLOCK}: it submits
 * executions {@code e-0 … e-(COUNT-1)} of a three-step workflow (idempotently, so several workers
 * may submit the same ones), prints {@code ready}, starts its runtime when it reads {@code go} on
 * stdin, runs them with the other workers of the store, prints {@code finished e-N} as each
 * finishes (newest first) and {@code done} once all have. Every step body appends one line to
 * {@code LOG} as its side effect, {@code effect EXECUTION KEY IDEMPOTENCY-KEY PID}, and one when it
 * ends, {@code body EXECUTION KEY PID START-MICROS END-MICROS}. If {@code BLOCK} names an
 * execution, step {@code b} of that execution prints {@code blocked} after its side effect and
 * never returns, so the test can SIGKILL the worker there. An optional fifth argument {@code
 * PAUSE-MILLIS} puts a durable sleep between steps {@code a} and {@code b}.
 */
public final class WorkflowWorker {
  private WorkflowWorker() {}

  public static void main(String[] args) throws Exception {
    Path store = Path.of(args[0]);
    Path log = Path.of(args[1]);
    int count = Integer.parseInt(args[2]);
    String block = args[3];
    long pauseMillis = args.length > 4 ? Long.parseLong(args[4]) : 0;
    Workflow<String, String> chain =
        Workflow.define(
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
    try (WorkflowRuntime runtime =
        WorkflowRuntime.builder()
            .store(SqliteWorkflowStore.directory(store).withNormalSync())
            .register(chain)
            .workers(4)
            .build()) {
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
