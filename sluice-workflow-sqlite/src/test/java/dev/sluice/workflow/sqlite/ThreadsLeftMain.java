/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.ScheduleOptions;
import dev.sluice.sqlite.SqliteStore;
import dev.sluice.workflow.Workflow;
import dev.sluice.workflow.WorkflowRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM that uses a SQLite limiter pool and a SQLite workflow runtime (timers, pulses, owner
 * sockets, a step inside the pool and a durable sleep), closes both, and then prints which Sluice
 * threads are still alive after a bounded join of each: {@code none} when every one ended, as it
 * must for a host such as {@code exec:java} to exit promptly.
 *
 * <p>Argument: a directory for the pool and the store.
 */
public final class ThreadsLeftMain {
  private static final long JOIN_MILLIS = 20_000;

  private ThreadsLeftMain() {}

  /**
   * Runs the scenario, then reports the threads left.
   *
   * @param args the directory
   * @throws Exception if the scenario fails
   */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    LimiterConfig config =
        LimiterConfig.builder()
            .maxConcurrent(1)
            .minTime(Duration.ofMillis(20))
            .expiration(Duration.ofMinutes(5))
            .build();
    try (Limiter limiter = Limiter.open(SqliteStore.directory(root.resolve("pool")), config)) {
      for (int i = 0; i < 4; i++) {
        limiter.schedule(() -> "spaced").join();
      }
      try (Lease lease = limiter.acquire(1)) {
        lease.admission();
      }
      Workflow<String, String> nap =
          Workflow.define(
              "nap",
              String.class,
              String.class,
              (ctx, in) -> {
                ctx.sleep("nap", Duration.ofMillis(30));
                return ctx.step(
                    "limited",
                    limiter,
                    ScheduleOptions.defaults(),
                    String.class,
                    () -> "woke " + in);
              });
      try (WorkflowRuntime rt =
          WorkflowRuntime.builder()
              .store(SqliteWorkflowStore.directory(root.resolve("workflows")))
              .register(nap)
              .build()) {
        rt.start();
        System.out.println(rt.submit(nap, "n-1", "up").result(Duration.ofSeconds(60)));
      }
    }
    System.out.println(aliveAfterJoin());
  }

  /** The Sluice threads still alive after each was given a bounded join, or {@code none}. */
  static String aliveAfterJoin() throws InterruptedException {
    List<String> alive = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("sluice") && t != Thread.currentThread()) {
        t.join(JOIN_MILLIS);
        if (t.isAlive()) {
          alive.add(t.getName() + (t.isDaemon() ? " (daemon)" : ""));
        }
      }
    }
    return alive.isEmpty() ? "none" : "alive: " + alive;
  }
}
