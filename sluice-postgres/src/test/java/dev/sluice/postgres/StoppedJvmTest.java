/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.PoolSnapshot;
import dev.sluice.TraceEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker JVM is stopped (SIGSTOP) while it holds a permit and cycles others, for longer than its
 * heartbeat timeout. Its dedicated connection stays open, and its owner's advisory lock with it, so
 * only the heartbeat's lapse by the server's clock can tell it is gone: the other JVMs reclaim what
 * it held and go on while it is still stopped. Once continued (SIGCONT) it learns that its owner
 * was lost and goes on as a new owner. By the tasks' own times the cap is never exceeded by tasks
 * whose lease counted; tasks that ran on a reclaimed lease carry tokens below every one granted
 * after the reclaim, and no task of the stopped JVM ran on a lease granted to its lost owner after
 * the reclaim.
 *
 * <p>A JVM stopped while it sends a statement of a batch holds the pool's row lock without the
 * server's idle timeout running; the others end its sessions once its heartbeat lapsed, so it never
 * wedges the pool. A hang fails by the class's timeout.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StoppedJvmTest {
  private static final int CAP = 2;
  private static final int THREADS = 3;
  private static final long WORK_MICROS = 2_000;
  private static final Duration HEARTBEAT = Duration.ofSeconds(3);
  private static final int TASKS_BETWEEN = 20;

  @TempDir Path dir;
  private final TestDatabase db = TestDatabase.create();
  private final List<CycleProcess> workers = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (CycleProcess w : workers) {
      w.close();
    }
    db.close();
  }

  @Test
  void aStoppedJvmLosesItsLeasesToTheOthersAndLearnsIt() throws Exception {
    try (Limiter observer =
        Limiter.open(
            db.store("stopped").heartbeatTimeout(HEARTBEAT).build(), PgWorker.config(CAP))) {
      for (int i = 0; i < 3; i++) {
        workers.add(
            CycleProcess.start(i, db, "stopped", CAP, THREADS, HEARTBEAT, WORK_MICROS, dir));
      }
      CycleProcess stopped = workers.get(0);
      List<CycleProcess> others = workers.subList(1, 3);
      for (CycleProcess w : workers) {
        assertThat(w.ask("progress " + TASKS_BETWEEN)).isEqualTo("PROGRESS");
      }
      String[] held = stopped.ask("hold").split(" ");
      assertThat(held[0]).isEqualTo("HELD");
      long heldLease = Long.parseLong(held[1]);
      String lostOwner = held[3];
      for (CycleProcess w : workers) {
        assertThat(w.ask("progress " + TASKS_BETWEEN)).isEqualTo("PROGRESS");
      }

      long stopAt = micros();
      // kill returns once the signal is sent; the process state shows the stop a moment later, so
      // it is checked below, once the whole cap came back.
      Signals.send("STOP", stopped.pid());
      CompletableFuture<Lease> whole =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return observer.acquire(CAP);
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      Lease all = whole.get(120, TimeUnit.SECONDS);
      long wholeAt = micros();
      long observerToken = all.admission().fencingToken();
      assertThat(Signals.stopped(stopped.pid()))
          .as("the whole cap came back while the worker was still stopped")
          .isTrue();
      PoolSnapshot during = observer.inspect();
      assertThat(during.leases())
          .singleElement()
          .satisfies(l -> assertThat(l.weight()).isEqualTo(CAP));
      Set<Long> reclaimed =
          during.trace().stream()
              .filter(e -> e.kind() == TraceEvent.Kind.RECLAIMED && e.owner().equals(lostOwner))
              .map(TraceEvent::leaseId)
              .collect(Collectors.toSet());
      assertThat(reclaimed).as("the stopped JVM's held lease was reclaimed").contains(heldLease);
      long reclaimAt =
          during.trace().stream()
              .filter(e -> e.kind() == TraceEvent.Kind.RECLAIMED && e.leaseId() == heldLease)
              .findFirst()
              .map(e -> ChronoUnit.MICROS.between(Instant.EPOCH, e.at()))
              .orElseThrow();
      all.close();
      long releasedAt = micros();
      for (CycleProcess w : others) {
        assertThat(w.ask("progress " + TASKS_BETWEEN))
            .as("the other JVMs go on while it is stopped")
            .isEqualTo("PROGRESS");
      }
      assertThat(Signals.stopped(stopped.pid())).as("the worker is still stopped").isTrue();

      long contAt = micros();
      Signals.send("CONT", stopped.pid());
      assertThat(stopped.ask("progress " + TASKS_BETWEEN))
          .as("the continued JVM goes on")
          .isEqualTo("PROGRESS");
      String[] again = stopped.ask("again").split(" ");
      assertThat(again[0]).isEqualTo("AGAIN");
      assertThat(again[3]).as("it goes on as a new owner").isNotEqualTo(lostOwner);
      assertThat(observer.inspect().leases())
          .as("closing the lost lease freed nothing of anyone else's")
          .noneMatch(l -> l.owner().equals(lostOwner));

      List<CycleProcess.Task> tasks = new ArrayList<>();
      List<CycleProcess.Stats> stats = new ArrayList<>();
      for (CycleProcess w : workers) {
        stats.add(w.stop());
        tasks.addAll(w.tasks());
      }
      List<CycleProcess.Task> stale =
          tasks.stream().filter(t -> t.worker() == 0 && reclaimed.contains(t.leaseId())).toList();
      List<CycleProcess.Task> counted = new ArrayList<>(tasks);
      counted.removeAll(stale);
      for (int i = 0; i < CAP; i++) {
        counted.add(new CycleProcess.Task(-1, 0, observerToken, wholeAt, releasedAt));
      }
      assertThat(CycleProcess.maxOverlap(counted))
          .as("tasks whose lease counted, running at once")
          .isBetween(1, CAP);
      assertThat(stale)
          .as("tasks on a reclaimed lease were granted before the reclaim")
          .allSatisfy(t -> assertThat(t.fencing()).isLessThan(observerToken));
      assertThat(tasks)
          .as("once continued, the stopped JVM ran only reclaimed leases or its new owner's ones")
          .filteredOn(t -> t.worker() == 0 && t.start() > contAt && !stale.contains(t))
          .allSatisfy(t -> assertThat(t.fencing()).isGreaterThan(observerToken));
      System.out.printf(
          "StoppedJvmTest: held lease reclaimed %d ms and whole cap granted %d ms after SIGSTOP"
              + " (heartbeat timeout %d ms);"
              + " stopped for %d ms; %d stale tasks; per JVM tasks/transient/owner lost/events: %s%n",
          (reclaimAt - stopAt) / 1000,
          (wholeAt - stopAt) / 1000,
          HEARTBEAT.toMillis(),
          (contAt - stopAt) / 1000,
          stale.size(),
          stats.stream()
              .map(
                  s ->
                      s.tasks()
                          + "/"
                          + s.transientFailures()
                          + "/"
                          + s.ownerLost()
                          + "/"
                          + s.ownerLostEvents())
              .toList());
    }
  }

  private static long micros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
