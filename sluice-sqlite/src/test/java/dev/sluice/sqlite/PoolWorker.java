/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import dev.sluice.LimiterOptions;
import dev.sluice.ScheduleOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A separate JVM on a pool, started by the process tests.
 *
 * <ul>
 *   <li>{@code tasks <dir> <cap> <threads> <tasksPerThread> <out>}: each thread acquires, records
 *       its admission and wall-clock start and end in microseconds, releases; lines go to {@code
 *       out} at the end.
 *   <li>{@code hold <dir> <cap> <weight>}: acquires, prints {@code HELD <fencingToken>}, then waits
 *       forever, for the test to kill it.
 *   <li>{@code holdThenWait <dir> <cap> <seconds>}: acquires 1, prints {@code HELD}, reads a line,
 *       waits up to {@code seconds} for one more and prints {@code WAITED} if none came, then waits
 *       for it without limit and prints {@code GOT}.
 *   <li>{@code waitBriefLease <dir> <cap> <leaseMillis>}: schedules a request whose lease lives
 *       {@code leaseMillis}, prints {@code QUEUED} once it waits in the pool, then {@code RAN} if
 *       its callback ran or {@code FAILED <exception class>} if the request failed.
 *   <li>{@code idle <dir> <cap> <windowMillis>}: see {@link IdleWorker}.
 *   <li>{@code exec...}: managed executions, see {@link ExecuteWorker}.
 * </ul>
 */
public final class PoolWorker {
  private PoolWorker() {}

  /** The {@code localHandOffs} of the {@code passingTasks} mode. */
  static final int HAND_OFFS = 4;

  static LimiterConfig config(long cap) {
    return LimiterConfig.builder().maxConcurrent(cap).build();
  }

  static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  public static void main(String[] args) throws Exception {
    if (args[0].startsWith("exec")) {
      ExecuteWorker.run(args);
      return;
    }
    Path dir = Path.of(args[1]);
    long cap = Long.parseLong(args[2]);
    LimiterConfig config =
        args[0].equals("passingTasks")
            ? LimiterConfig.builder().maxConcurrent(cap).localHandOffs(HAND_OFFS).build()
            : config(cap);
    if (args[0].equals("idle")) {
      IdleWorker.run(dir, Long.parseLong(args[3]));
      return;
    }
    if (args[0].equals("throttle")) {
      ThrottleWorker.run(dir, config, Long.parseLong(args[3]));
      return;
    }
    if (args[0].equals("waitBriefLease")) {
      waitBriefLease(dir, config, Long.parseLong(args[3]));
      return;
    }
    Limiter limiter = Limiter.open(SqliteStore.directory(dir), config);
    switch (args[0]) {
      case "tasks", "passingTasks" ->
          tasks(limiter, Integer.parseInt(args[3]), Integer.parseInt(args[4]), args[5]);
      case "hold" -> hold(limiter, Long.parseLong(args[3]));
      case "holdThenWait" -> holdThenWait(limiter, Long.parseLong(args[3]));
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  private static void tasks(Limiter limiter, int threads, int perThread, String out)
      throws Exception {
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(threads);
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < perThread; i++) {
                    try (Lease lease = limiter.acquire(1)) {
                      long start = micros();
                      Admission a = lease.admission();
                      long spinUntil = System.nanoTime() + 200_000;
                      while (System.nanoTime() < spinUntil) {
                        Thread.onSpinWait();
                      }
                      long end = micros();
                      lines.add(a.leaseId() + " " + a.fencingToken() + " " + start + " " + end);
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                } finally {
                  done.countDown();
                }
              });
      thread.start();
    }
    done.await();
    limiter.close();
    if (!failures.isEmpty()) {
      failures.get(0).printStackTrace();
      System.exit(2);
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(out)))) {
      lines.forEach(w::println);
    }
    System.exit(0);
  }

  private static void holdThenWait(Limiter limiter, long seconds) throws Exception {
    Lease first = limiter.acquire(1);
    System.out.println("HELD " + first.admission().fencingToken());
    System.out.flush();
    // Waits for the test's go, so that every worker holds its unit before any asks for more.
    System.in.read();
    if (limiter.tryAcquire(1, java.time.Duration.ofSeconds(seconds)).isEmpty()) {
      System.out.println("WAITED");
      System.out.flush();
    }
    Lease second = limiter.acquire(1);
    System.out.println("GOT " + second.admission().fencingToken());
    System.out.flush();
    new CountDownLatch(1).await();
  }

  private static void waitBriefLease(Path dir, LimiterConfig config, long leaseMillis)
      throws Exception {
    LimiterListener queued =
        e -> {
          if (e.kind() == LimiterEvent.Kind.QUEUED) {
            System.out.println("QUEUED");
            System.out.flush();
          }
        };
    Limiter limiter =
        Limiter.open(
            SqliteStore.directory(dir), config, LimiterOptions.builder().listener(queued).build());
    ScheduleOptions brief =
        ScheduleOptions.builder().expiration(java.time.Duration.ofMillis(leaseMillis)).build();
    try {
      limiter.schedule(admission -> "ran", brief).join();
      System.out.println("RAN");
    } catch (java.util.concurrent.CompletionException e) {
      System.out.println("FAILED " + e.getCause().getClass().getName());
    }
    System.out.flush();
    new CountDownLatch(1).await();
  }

  private static void hold(Limiter limiter, long weight) throws Exception {
    Lease lease = limiter.acquire(weight);
    System.out.println("HELD " + lease.admission().fencingToken());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
