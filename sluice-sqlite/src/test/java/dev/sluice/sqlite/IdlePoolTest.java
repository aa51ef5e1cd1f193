/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.local.Wakeups;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An idle pool costs nothing: no transaction, no watcher wake-up, over a quiet second. */
class IdlePoolTest {
  @TempDir Path root;

  @Test
  void aQuietSecondMakesNoWakeUps() throws Exception {
    LimiterConfig config =
        LimiterConfig.builder()
            .maxConcurrent(2)
            .minTime(Duration.ofMillis(5))
            .expiration(Duration.ofMinutes(5))
            .reservoir(100)
            .reservoirRefresh(100, Duration.ofMinutes(1))
            .build();
    try (Limiter a = Limiter.open(SqliteStore.directory(root.resolve("p")), config);
        Limiter b = Limiter.open(SqliteStore.directory(root.resolve("p")), config)) {
      Lease held = a.acquire(2);
      CompletableFuture<Integer> queued = b.schedule(() -> 1);
      held.close();
      assertThat(queued.get(20, TimeUnit.SECONDS)).isEqualTo(1);
      try (Lease stillHeld = a.acquire(1)) {
        a.inspect();
        // Waits for the next wake-up of any kind; an idle pool must let a whole second pass. A
        // wake-up from outside the pool (a socket of an earlier test's worker closing) may cost
        // one try; a pool that polled would never get a quiet second.
        boolean quiet = false;
        for (int i = 0; i < 10 && !quiet; i++) {
          long before = Wakeups.count();
          quiet = Wakeups.awaitAfter(before, Duration.ofSeconds(1)) == before;
        }
        assertThat(quiet)
            .as("a second without transactions, pulse-watcher or selector wake-ups, within 10 s")
            .isTrue();
        assertThat(stillHeld.admission().weight()).isEqualTo(1);
      }
    }
  }
}
