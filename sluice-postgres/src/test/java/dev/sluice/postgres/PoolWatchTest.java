/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.memory.MemoryStore;
import dev.sluice.spi.PoolSession;
import java.sql.SQLException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PoolSession#watch} on PostgreSQL: a watching owner hears of every committed change of the
 * pool, including an at-once grant that concerns no other owner (whose commit notifies nobody while
 * nobody watches), from another view of the pool (another data source, as another JVM has) and from
 * its own view; the memory store, which cannot tell, says so.
 */
class PoolWatchTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();
  private static final long WAIT_SECONDS = 30;

  private final TestDatabase db = TestDatabase.create();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void aWatcherHearsOfEveryChangeFromAnotherViewAndItsOwn() throws Exception {
    Semaphore changes = new Semaphore(0);
    try (HikariDataSource other = db.dataSource(3);
        Limiter elsewhere =
            Limiter.open(
                PostgresStore.builder(other, "watched").schema(db.schema()).build(), CAP_2);
        Limiter here = Limiter.open(db.store("watched").build(), CAP_2)) {
      PoolSession watch = db.store("watched").build().open(CAP_2);
      try {
        assertThat(watch.watch(changes::release)).isTrue();
        changes.drainPermits();

        Lease lease = elsewhere.acquire(1);
        assertThat(changes.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS))
            .as("another view's at-once grant")
            .isTrue();
        changes.drainPermits();
        lease.close();
        assertThat(changes.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS))
            .as("another view's release")
            .isTrue();
        changes.drainPermits();

        here.acquire(2).close();
        assertThat(changes.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS))
            .as("a change committed by the watcher's own view")
            .isTrue();
      } finally {
        watch.retire();
      }
    }
  }

  @Test
  void aStoreThatCannotTellSaysSo() {
    try (PoolSession s = MemoryStore.named("unwatched-" + System.nanoTime()).open(CAP_2)) {
      assertThat(s.watch(() -> {})).isFalse();
    }
  }
}
