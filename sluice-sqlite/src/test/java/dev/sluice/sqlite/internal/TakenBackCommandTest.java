/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.local.GateLock;
import dev.sluice.local.PoolDirectory;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command submitted while the pool's gate is held elsewhere can be taken back until the
 * coordinator holds the gate, and is then never applied; one already applied cannot be.
 */
class TakenBackCommandTest {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().maxConcurrent(2).build();

  @TempDir Path root;

  @Test
  void aCommandTakenBackWhileTheGateIsHeldIsNeverApplied() throws Exception {
    Path pool = root.resolve("pool");
    PoolSession session = SqliteStore.directory(pool).open(CONFIG);
    try (GateLock gate = GateLock.open(PoolDirectory.open(pool))) {
      CompletableFuture<PoolOutcome<AcquireAnswer>> acquire;
      try (GateLock.Hold held = gate.hold()) {
        // The coordinator cannot take the gate while this thread holds it, so it cannot have
        // claimed the command yet.
        acquire = session.submit(new PoolCommand.Acquire(session.ownerId(), 1, 1, -1, 0));
        assertThat(acquire.cancel(false)).isTrue();
      }
      assertThat(acquire).isCancelled();
      PoolSnapshot after = session.execute(new PoolCommand.Inspect(session.ownerId())).value();
      assertThat(after.leases()).isEmpty();
      assertThat(after.waiters()).isEmpty();
      assertThat(after.activeWeight()).isZero();
    } finally {
      session.retire();
    }
  }

  @Test
  void aCommandTheStoreAppliedCannotBeTakenBack() {
    PoolSession session = SqliteStore.directory(root.resolve("pool")).open(CONFIG);
    try {
      CompletableFuture<PoolOutcome<AcquireAnswer>> acquire =
          session.submit(new PoolCommand.Acquire(session.ownerId(), 1, 1, -1, 0));
      AcquireAnswer answer = acquire.join().value();
      assertThat(acquire.cancel(false)).isFalse();
      assertThat(answer).isInstanceOf(AcquireAnswer.Granted.class);
      PoolSnapshot after = session.execute(new PoolCommand.Inspect(session.ownerId())).value();
      assertThat(after.activeWeight()).isEqualTo(1);
    } finally {
      session.retire();
    }
  }
}
