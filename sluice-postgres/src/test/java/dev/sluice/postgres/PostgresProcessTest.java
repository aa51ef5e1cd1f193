/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real JVMs on one PostgreSQL pool: one cap across them, and a SIGKILLed holder's capacity back.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PostgresProcessTest {
  private static final int CAP = 2;

  @TempDir Path root;
  private final TestDatabase db = TestDatabase.create();
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    started.forEach(Process::destroyForcibly);
    for (Process p : started) {
      p.waitFor(30, TimeUnit.SECONDS);
    }
    db.close();
  }

  private Process start(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PgWorker.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    return p;
  }

  private record Task(long leaseId, long fencing, long start, long end) {}

  @Test
  void threeJvmsShareOneCapAndEveryAdmissionHasItsOwnToken() throws Exception {
    int jvms = 3;
    List<Process> workers = new ArrayList<>();
    for (int i = 0; i < jvms; i++) {
      workers.add(
          start(
              "tasks",
              TestDatabase.URL,
              db.schema(),
              "shared",
              Integer.toString(CAP),
              "6",
              "20",
              root.resolve("out-" + i).toString()));
    }
    for (Process w : workers) {
      assertThat(w.waitFor(180, TimeUnit.SECONDS)).as("worker finished").isTrue();
      assertThat(w.exitValue()).as("worker exit status").isZero();
    }
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < jvms; i++) {
      for (String line : Files.readAllLines(root.resolve("out-" + i))) {
        String[] f = line.split(" ");
        tasks.add(
            new Task(
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3])));
      }
    }
    assertThat(tasks).hasSize(jvms * 6 * 20);
    assertThat(maxOverlap(tasks)).as("tasks running at once, across JVMs").isBetween(1, CAP);
    assertThat(tasks.stream().map(Task::fencing).distinct().count())
        .as("every admission has its own fencing token")
        .isEqualTo(tasks.size());
  }

  @Test
  void aSigkilledHoldersCapacityComesBackByItsLockWithoutAnyExpiration() throws Exception {
    Process holder =
        start("hold", TestDatabase.URL, db.schema(), "held", Integer.toString(CAP), "2");
    String line =
        new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    assertThat(line).startsWith("HELD ");
    // Heartbeats so long that their probe (every third of the timeout, here 200 s) cannot be what
    // reclaims within the waiter's 60 s: the holder's lock, dropped with its connection, is.
    PostgresStore store = db.store("held").heartbeatTimeout(Duration.ofMinutes(10)).build();
    try (Limiter limiter = Limiter.open(store, PgWorker.config(CAP))) {
      assertThat(limiter.tryAcquire(1)).as("the holder's weight counts").isEmpty();
      String deadOwner = limiter.inspect().leases().get(0).owner();
      CompletableFuture<Long> waiter =
          CompletableFuture.supplyAsync(
              () -> {
                try (Lease l = limiter.acquire(CAP)) {
                  return l.admission().fencingToken();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      holder.destroyForcibly(); // SIGKILL: no close, no retire
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(waiter.get(60, TimeUnit.SECONDS)).isGreaterThan(Long.parseLong(line.substring(5)));
      assertThat(limiter.inspect().leases()).isEmpty();
      assertThat(limiter.inspect().trace())
          .as("the dead owner's lease was reclaimed")
          .anyMatch(e -> e.owner().equals(deadOwner) && e.kind().name().equals("RECLAIMED"));
    }
  }

  private static int maxOverlap(List<Task> tasks) {
    List<long[]> edges = new ArrayList<>();
    for (Task t : tasks) {
      edges.add(new long[] {t.start(), 1});
      edges.add(new long[] {t.end(), -1});
    }
    // Ends before starts at the same microsecond: touching intervals do not overlap.
    edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
    int running = 0;
    int max = 0;
    for (long[] e : edges) {
      running += (int) e[1];
      max = Math.max(max, running);
    }
    return max;
  }
}
