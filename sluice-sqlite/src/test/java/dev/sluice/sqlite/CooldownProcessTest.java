/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Limiter;
import dev.sluice.ScheduleOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared cooldown across real JVMs on one SQLite pool. */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CooldownProcessTest extends ProcessTestCase {
  @Test
  void aCooldownTriggeredInOneProcessPausesAWaiterInAnotherUntilItEnds() throws Exception {
    Path pool = root.resolve("pool");
    Process throttler = workers.start("throttle", pool.toString(), "1", "1500");
    assertThat(WorkerProcesses.readLine(throttler)).isEqualTo("HELD");
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(1))) {
      CompletableFuture<Instant> granted =
          limiter.schedule(a -> a.grantedAt(), ScheduleOptions.defaults());
      assertThat(limiter.inspect().waiters()).as("waits behind the other JVM's lease").hasSize(1);
      throttler.getOutputStream().write('\n');
      throttler.getOutputStream().flush();
      String line = WorkerProcesses.readLine(throttler);
      assertThat(line).startsWith("UNTIL ");
      long until = Long.parseLong(line.substring("UNTIL ".length()));
      Instant admitted = granted.get(60, TimeUnit.SECONDS);
      assertThat(admitted.toEpochMilli())
          .as("admitted only once the cooldown the other JVM started ended")
          .isGreaterThanOrEqualTo(until);
      assertThat(limiter.maintenance().status().cooldownUntil()).isEmpty();
      assertThat(throttler.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(throttler.exitValue()).isZero();
    }
  }
}
