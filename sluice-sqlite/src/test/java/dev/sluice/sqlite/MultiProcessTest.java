/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real JVMs on one pool: one cap, one waiting order, and capacity back from a SIGKILLed holder. */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiProcessTest extends ProcessTestCase {
  private Process start(String... args) throws Exception {
    return workers.start(args);
  }

  private record Task(int process, long leaseId, long fencing, long start, long end) {}

  /** Runs 4 worker processes of 8 threads × 25 tasks each in {@code mode}; returns every task. */
  private List<Task> runFourProcesses(String mode) throws Exception {
    Path pool = root.resolve("pool");
    int processCount = 4;
    List<Process> workers = new ArrayList<>();
    for (int i = 0; i < processCount; i++) {
      workers.add(
          start(
              mode,
              pool.toString(),
              Integer.toString(CAP),
              "8",
              "25",
              root.resolve("out-" + i).toString()));
    }
    for (Process w : workers) {
      assertThat(w.waitFor(150, TimeUnit.SECONDS)).as("worker finished").isTrue();
      assertThat(w.exitValue()).as("worker exit status").isZero();
    }
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < processCount; i++) {
      for (String line : Files.readAllLines(root.resolve("out-" + i))) {
        String[] f = line.split(" ");
        tasks.add(
            new Task(
                i,
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3])));
      }
    }
    assertThat(tasks).hasSize(processCount * 8 * 25);
    return tasks;
  }

  @Test
  void fourProcessesPassingUnitsLocallyKeepTheCapAndEveryUnitInItsProcess() throws Exception {
    List<Task> tasks = runFourProcesses("passingTasks");
    assertThat(maxOverlap(tasks)).as("tasks running at once").isBetween(1, CAP);
    assertThat(tasks.stream().map(Task::fencing).distinct().count())
        .as("every admission has its own fencing token")
        .isEqualTo(tasks.size());
    Map<Long, List<Task>> byLease =
        tasks.stream().collect(java.util.stream.Collectors.groupingBy(Task::leaseId));
    assertThat(byLease.size()).as("grants from the pool").isLessThan(tasks.size());
    for (List<Task> unit : byLease.values()) {
      assertThat(unit)
          .as("one grant, then at most the quota of passes")
          .hasSizeLessThanOrEqualTo(1 + PoolWorker.HAND_OFFS);
      assertThat(unit.stream().map(Task::process).distinct().count())
          .as("a unit is passed only inside the process that holds it")
          .isEqualTo(1);
      unit.sort(Comparator.comparingLong(Task::start));
      for (int i = 1; i < unit.size(); i++) {
        assertThat(unit.get(i).start()).isGreaterThanOrEqualTo(unit.get(i - 1).end());
        assertThat(unit.get(i).fencing())
            .as("tokens rise along a unit")
            .isGreaterThan(unit.get(i - 1).fencing());
      }
    }
  }

  @Test
  void fourProcessesShareOneCapAndOneArrivalOrder() throws Exception {
    List<Task> tasks = runFourProcesses("tasks");
    assertThat(maxOverlap(tasks)).as("tasks running at once").isBetween(1, CAP);
    // Every request got its id when it reached the pool; grants (fencing order) follow that order.
    tasks.sort(Comparator.comparingLong(Task::fencing));
    for (int i = 1; i < tasks.size(); i++) {
      assertThat(tasks.get(i).leaseId())
          .as("admission %d follows arrival order", i)
          .isGreaterThan(tasks.get(i - 1).leaseId());
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

  @Test
  void aSigkilledHolderGivesItsCapacityBackWithoutAnyExpiration() throws Exception {
    Path pool = root.resolve("pool");
    Process holder = start("hold", pool.toString(), Integer.toString(CAP), Integer.toString(CAP));
    String line = WorkerProcesses.readLine(holder);
    assertThat(line).startsWith("HELD ");
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP))) {
      assertThat(limiter.tryAcquire(1)).isEmpty();
      CompletableFuture<Long> waiter =
          CompletableFuture.supplyAsync(
              () -> {
                try (Lease l = limiter.acquire(CAP)) {
                  return l.admission().fencingToken();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      holder.destroyForcibly();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long token = waiter.get(60, TimeUnit.SECONDS);
      assertThat(token).isGreaterThan(Long.parseLong(line.substring(5)));
      assertThat(limiter.inspect().leases()).isEmpty();
    }
  }

  @Test
  void twoProcessesHoldingAndWaitingForAMinuteSeeNoDeadlockAndEitherDeathFreesTheOther()
      throws Exception {
    Path pool = root.resolve("pool");
    Process first = start("holdThenWait", pool.toString(), "2", "60");
    assertThat(WorkerProcesses.readLine(first)).startsWith("HELD ");
    Process second = start("holdThenWait", pool.toString(), "2", "60");
    assertThat(WorkerProcesses.readLine(second)).startsWith("HELD ");
    for (Process p : List.of(first, second)) {
      p.getOutputStream().write('\n');
      p.getOutputStream().flush();
    }
    // Each waits a full minute for the unit the other holds; a file-lock deadlock (EDEADLK) would
    // end a worker with an error instead.
    assertThat(WorkerProcesses.readLine(first)).isEqualTo("WAITED");
    assertThat(WorkerProcesses.readLine(second)).isEqualTo("WAITED");
    assertThat(first.isAlive() && second.isAlive()).isTrue();
    first.destroyForcibly();
    assertThat(WorkerProcesses.readLine(second))
        .as("the survivor gets the freed unit")
        .startsWith("GOT ");
  }
}
