/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.PoolSnapshot;
import dev.sluice.local.CrashStages;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A process held at each stage of a writing transaction, under the gate, stopped there (SIGSTOP)
 * and killed (SIGKILL), leaves a consistent pool whose capacity returns to the survivors; one
 * stopped and then continued corrupts nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrashStageTest extends ProcessTestCase {
  private Process holderStoppingAt(Path pool, String stage, int weight) throws Exception {
    Process p =
        workers.start(
            List.of("-Dsluice.test.stopAt=" + stage),
            "hold",
            pool.toString(),
            Integer.toString(CAP),
            Integer.toString(weight));
    assertThat(WorkerProcesses.readLine(p)).isEqualTo("STOPPING " + stage);
    WorkerProcesses.signal(p, "STOP");
    return p;
  }

  private static String integrity(Path pool) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + pool.resolve("state.db"));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
      rs.next();
      return rs.getString(1);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {CrashStages.BEFORE_PULSE, CrashStages.AFTER_PULSE, CrashStages.AFTER_COMMIT})
  void aHolderKilledInsideItsTransactionLeavesAConsistentPoolAndItsCapacity(String stage)
      throws Exception {
    Path pool = root.resolve("pool");
    Process holder = holderStoppingAt(pool, stage, CAP);
    holder.destroyForcibly();
    assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(integrity(pool)).isEqualTo("ok");
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP))) {
      Optional<Lease> all = limiter.tryAcquire(CAP);
      assertThat(all).as("the dead holder's capacity is back").isPresent();
      PoolSnapshot s = limiter.inspect();
      assertThat(s.leases()).singleElement().satisfies(l -> assertThat(l.weight()).isEqualTo(CAP));
      all.get().close();
    }
  }

  @Test
  void aHolderKilledWhileItsCallbackRunsGivesItsCapacityBack() throws Exception {
    Path pool = root.resolve("pool");
    Process holder = workers.start("hold", pool.toString(), Integer.toString(CAP), "2");
    assertThat(WorkerProcesses.readLine(holder)).startsWith("HELD ");
    WorkerProcesses.signal(holder, "STOP");
    holder.destroyForcibly();
    assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP))) {
      assertThat(limiter.tryAcquire(CAP)).isPresent().get().satisfies(Lease::close);
    }
  }

  @Test
  void aStoppedGateHolderCorruptsNothingAndOthersResumeWhenItContinues() throws Exception {
    Path pool = root.resolve("pool");
    Process holder = holderStoppingAt(pool, CrashStages.AFTER_PULSE, 1);
    Path real = pool.toRealPath();
    // Reached only when this JVM tried the gate and found it taken by another process.
    CountDownLatch blocked = new CountDownLatch(1);
    CompletableFuture<long[]> survivor;
    try (AutoCloseable observed =
        CrashStages.observe(
            (stage, where) -> {
              if (stage.equals(CrashStages.GATE_CONTENDED) && real.equals(where)) {
                blocked.countDown();
              }
            })) {
      // Opening waits for the gate too, so the whole survivor runs on another thread.
      survivor =
          CompletableFuture.supplyAsync(
              () -> {
                try (Limiter limiter =
                        Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP));
                    Lease l = limiter.acquire(CAP - 1)) {
                  return new long[] {l.admission().weight(), limiter.inspect().activeWeight()};
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(blocked.await(60, TimeUnit.SECONDS))
          .as("the survivor found the gate held by the stopped process and waits for it")
          .isTrue();
      assertThat(survivor).as("the gate is held by the stopped process").isNotDone();
    }
    WorkerProcesses.signal(holder, "CONT");
    holder.getOutputStream().write('\n');
    holder.getOutputStream().flush();
    assertThat(WorkerProcesses.readLine(holder)).startsWith("HELD ");
    assertThat(survivor.get(60, TimeUnit.SECONDS))
        .as("granted, next to the continued holder's lease")
        .containsExactly(CAP - 1, CAP);
    assertThat(integrity(pool)).isEqualTo("ok");
  }

  @Test
  void twoProcessesOpeningAFreshPoolAtOnceCreateItOnce() throws Exception {
    Path pool = root.resolve("fresh");
    Process a = workers.start("hold", pool.toString(), Integer.toString(CAP), "1");
    Process b = workers.start("hold", pool.toString(), Integer.toString(CAP), "1");
    assertThat(WorkerProcesses.readLine(a)).startsWith("HELD ");
    assertThat(WorkerProcesses.readLine(b)).startsWith("HELD ");
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP))) {
      assertThat(limiter.inspect().leases()).hasSize(2);
      assertThat(limiter.inspect().activeWeight()).isEqualTo(2);
    }
  }
}
