/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ControlStatus;
import dev.sluice.Limiter;
import dev.sluice.PoolDrainingException;
import dev.sluice.ScheduleOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Managed execution's pool state across real JVMs on one SQLite pool: the drain, operations left by
 * a killed JVM, the shared cooldown and the circuit's single probe.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ExecutionProcessTest extends ProcessTestCase {
  private Path pool() {
    return root.resolve("pool");
  }

  private Limiter open() {
    return Limiter.open(SqliteStore.directory(pool()), ExecuteWorker.config());
  }

  private static void go(Process p) throws Exception {
    p.getOutputStream().write('\n');
    p.getOutputStream().flush();
  }

  private static void exitsCleanly(Process p) throws Exception {
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
  }

  /** The worker's next line, read on another thread so two workers can be awaited at once. */
  private static CompletableFuture<String> nextLine(Process p) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return WorkerProcesses.readLine(p);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  @Test
  void aDrainStartedByOneJvmIsSeenByAnotherAndSurvivesEveryClientClosing() throws Exception {
    Process drainer = workers.start("execDrain", pool().toString());
    assertThat(WorkerProcesses.readLine(drainer)).isEqualTo("DRAINED 1");
    exitsCleanly(drainer);
    try (Limiter limiter = open()) {
      ControlStatus status = limiter.maintenance().status();
      assertThat(status.generation()).isEqualTo(1);
      assertThat(status.draining()).isTrue();
      assertThat(status.clean()).isTrue();
      Throwable refused = assertThatFails(limiter.schedule(() -> 1));
      assertThat(refused).isInstanceOf(PoolDrainingException.class);
      limiter.maintenance().resume(1);
      assertThat(limiter.schedule(() -> 2).get(60, TimeUnit.SECONDS)).isEqualTo(2);
    }
  }

  @Test
  void aJvmKilledMidAttemptLeavesItsOperationUnconfirmedToBeAcknowledged() throws Exception {
    Process hung = workers.start("execHang", pool().toString());
    String line = WorkerProcesses.readLine(hung);
    assertThat(line).startsWith("RUNNING ");
    String operation = line.substring("RUNNING ".length());
    try (Limiter limiter = open()) {
      // Accepted before the drain, it waits behind the killed JVM's lease: its grant shows that
      // the store reclaimed what the dead owner held.
      CompletableFuture<Integer> behind = limiter.schedule(a -> 1, ScheduleOptions.defaults());
      assertThat(limiter.inspect().waiters()).hasSize(1);
      long generation = limiter.maintenance().drain().generation();
      assertThat(limiter.maintenance().status().runningOperations()).isEqualTo(1);
      hung.destroyForcibly();
      assertThat(hung.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(behind.get(60, TimeUnit.SECONDS)).isEqualTo(1);
      ControlStatus status = limiter.maintenance().status();
      assertThat(status.runningOperations()).isZero();
      assertThat(status.unacknowledgedIds()).containsExactly(operation);
      assertThat(status.settled()).isFalse();
      ControlStatus acknowledged =
          limiter
              .maintenance()
              .acknowledge(generation, List.of(operation), "killed by the test; idempotent");
      assertThat(acknowledged.settled()).isTrue();
      assertThat(limiter.maintenance().await(generation, Duration.ofSeconds(60))).isTrue();
      assertThat(limiter.maintenance().resume(generation).unconfirmed()).isEmpty();
    }
  }

  @Test
  void aCooldownTriggeredByAnExecutionInOneJvmPausesAnotherUntilItEnds() throws Exception {
    Process throttler = workers.start("execThrottle", pool().toString(), "1500");
    assertThat(WorkerProcesses.readLine(throttler)).isEqualTo("HELD");
    try (Limiter limiter = open()) {
      CompletableFuture<Instant> granted =
          limiter.schedule(a -> a.grantedAt(), ScheduleOptions.defaults());
      assertThat(limiter.inspect().waiters()).as("waits behind the other JVM's attempt").hasSize(1);
      go(throttler);
      String line = WorkerProcesses.readLine(throttler);
      assertThat(line).startsWith("UNTIL ");
      long until = Long.parseLong(line.substring("UNTIL ".length()));
      assertThat(granted.get(60, TimeUnit.SECONDS).toEpochMilli())
          .as("admitted only once the cooldown the other JVM's execution started ended")
          .isGreaterThanOrEqualTo(until);
      exitsCleanly(throttler);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void aCircuitOpenedByFailuresInTwoJvmsLetsExactlyOneProbeThrough() throws Exception {
    for (int i = 0; i < 2; i++) {
      Process failing = workers.start("execFail", pool().toString());
      assertThat(WorkerProcesses.readLine(failing)).isEqualTo("FAILED");
      exitsCleanly(failing);
    }
    try (Limiter limiter = open()) {
      assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.OPEN);
      Process a = workers.start("execProbe", pool().toString());
      Process b = workers.start("execProbe", pool().toString());
      List<Process> both = List.of(a, b);
      CompletableFuture<String>[] next = new CompletableFuture[] {nextLine(a), nextLine(b)};
      boolean[] queued = new boolean[2];
      int probe = -1;
      // Each prints QUEUED while the circuit holds it back, and STARTED when its attempt runs.
      while (probe < 0) {
        CompletableFuture.anyOf(next).get(60, TimeUnit.SECONDS);
        for (int i = 0; i < 2 && probe < 0; i++) {
          if (next[i].isDone()) {
            String line = next[i].join();
            if (line.equals("STARTED")) {
              probe = i;
            } else {
              assertThat(line).isEqualTo("QUEUED");
              queued[i] = true;
              next[i] = nextLine(both.get(i));
            }
          }
        }
      }
      int other = 1 - probe;
      if (!queued[other]) {
        assertThat(next[other].get(60, TimeUnit.SECONDS))
            .as("the second JVM waits in the pool while the probe runs")
            .isEqualTo("QUEUED");
        next[other] = nextLine(both.get(other));
      }
      ControlStatus during = limiter.maintenance().status();
      assertThat(during.circuit()).isEqualTo(ControlStatus.Circuit.HALF_OPEN);
      assertThat(during.activeLeases()).as("one probe").isEqualTo(1);
      assertThat(during.waiters()).isEqualTo(1);
      assertThat(next[other]).as("the second JVM did not start").isNotDone();
      go(both.get(probe));
      assertThat(WorkerProcesses.readLine(both.get(probe))).isEqualTo("DONE");
      exitsCleanly(both.get(probe));
      assertThat(next[other].get(60, TimeUnit.SECONDS))
          .as("admitted once the probe's success closed the circuit")
          .isEqualTo("STARTED");
      assertThat(limiter.maintenance().status().circuit()).isEqualTo(ControlStatus.Circuit.CLOSED);
      go(both.get(other));
      assertThat(WorkerProcesses.readLine(both.get(other))).isEqualTo("DONE");
      exitsCleanly(both.get(other));
    }
  }

  private static Throwable assertThatFails(CompletableFuture<?> f) throws Exception {
    try {
      f.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("expected a failure");
  }
}
