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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process stopped (SIGSTOP) while it holds the pool's gate freezes every transaction of the pool,
 * but the non-blocking and timed forms of acquire keep their word: they answer "no" instead of
 * waiting for the gate, take their request back, and leave nothing behind in the pool once the
 * stopped process continues.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StoppedGateHolderProcessTest extends ProcessTestCase {
  @Test
  void tryAcquireAnswersWhileAStoppedProcessHoldsTheGateAndLeavesNothingBehind() throws Exception {
    Path pool = root.resolve("pool");
    // Opened before the gate is taken: opening a pool reads it under the gate.
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(CAP))) {
      Process holder =
          workers.start(
              List.of("-Dsluice.test.stopAt=" + CrashStages.BEFORE_PULSE),
              "hold",
              pool.toString(),
              Integer.toString(CAP),
              "1");
      assertThat(WorkerProcesses.readLine(holder))
          .isEqualTo("STOPPING " + CrashStages.BEFORE_PULSE);
      WorkerProcesses.signal(holder, "STOP");

      assertThat(limiter.tryAcquire(1)).as("no slot while the gate cannot be had").isEmpty();
      assertThat(limiter.tryAcquire(1, Duration.ofMillis(300)))
          .as("nor within a wait that ends while the gate is held")
          .isEmpty();

      WorkerProcesses.signal(holder, "CONT");
      holder.getOutputStream().write('\n');
      holder.getOutputStream().flush();
      assertThat(WorkerProcesses.readLine(holder)).startsWith("HELD ");
      Optional<Lease> mine = limiter.tryAcquire(1, Duration.ofSeconds(30));
      assertThat(mine).as("the pool answers again once the holder continued").isPresent();
      PoolSnapshot s = limiter.inspect();
      assertThat(s.activeWeight())
          .as("the holder's lease and this one: the requests taken back left nothing")
          .isEqualTo(2);
      assertThat(s.waiters()).isEmpty();
      mine.get().close();
    }
  }
}
