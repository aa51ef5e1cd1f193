/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.TraceEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owner stopped (SIGSTOP) while another process's transaction grants its request a short lease:
 * the lease expires before the owner looks, and when it resumes the request fails with a {@link
 * dev.sluice.LeaseExpiredException} (it had no queue timeout, so a queue timeout would be a lie)
 * and its callback never runs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PausedOwnerProcessTest extends ProcessTestCase {
  @Test
  void aGrantWhoseLeaseExpiredWhileItsOwnerWasStoppedFailsAsAnExpiredLease() throws Exception {
    Path pool = root.resolve("pool");
    try (Limiter limiter = Limiter.open(SqliteStore.directory(pool), PoolWorker.config(1))) {
      Lease held = limiter.acquire(1);
      Process waiter = workers.start("waitBriefLease", pool.toString(), "1", "200");
      assertThat(WorkerProcesses.readLine(waiter)).isEqualTo("QUEUED");
      WorkerProcesses.signal(waiter, "STOP");
      long grantedId = limiter.inspect().waiters().get(0).entryId();
      held.close();
      // This JVM's timer for the stopped owner's lease expiry admits this request: no sleep.
      Optional<Lease> next = limiter.tryAcquire(1, Duration.ofSeconds(30));
      assertThat(next).as("the unit came back when the unseen lease expired").isPresent();
      assertThat(limiter.inspect().trace())
          .filteredOn(e -> e.leaseId() == grantedId)
          .extracting(TraceEvent::kind)
          .containsSubsequence(TraceEvent.Kind.ADMITTED, TraceEvent.Kind.EXPIRED);
      WorkerProcesses.signal(waiter, "CONT");
      assertThat(WorkerProcesses.readLine(waiter))
          .isEqualTo("FAILED " + dev.sluice.LeaseExpiredException.class.getName());
      next.get().close();
    }
  }
}
