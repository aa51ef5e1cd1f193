/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolState;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the memory store says a command took effect at its issuer's own clock reading: only when the
 * issuer gave one, the lock was free and no command applied meanwhile at a later time. A caller
 * trusts it to skip a reading of its own, so every case that bends the time must say no.
 */
class MemorySessionReadingTest {
  private static final TimeSource CLOCK = TimeSource.system();
  private final MemoryPool pool =
      new MemoryPool(
          "reading", PoolState.create(LimiterConfig.builder().build(), CLOCK.wallMillis(), 8));
  private final MemorySession session = new MemorySession(pool, "owner", CLOCK);
  private final ExecutorService other = Executors.newSingleThreadExecutor();
  private long ref;

  @AfterEach
  void stopOther() {
    other.shutdownNow();
  }

  @Test
  void aCommandAppliedAtOnceAtTheIssuersReadingSaysSo() {
    assertThat(session.execute(acquire(), CLOCK.monotonicNanos()).atIssuersReading()).isTrue();
    assertThat(session.submit(acquire(), CLOCK.monotonicNanos()).join().atIssuersReading())
        .isTrue();
  }

  @Test
  void aCommandWithoutTheIssuersReadingIsNotAtIt() {
    assertThat(session.execute(acquire()).atIssuersReading()).isFalse();
    assertThat(session.submit(acquire()).join().atIssuersReading()).isFalse();
  }

  @Test
  void aReadingOlderThanACommandAppliedMeanwhileIsNotTheTime() {
    long early = CLOCK.monotonicNanos();
    // Another command applied at a reading five milliseconds later, as a caller that read the clock
    // after this one and reached the lock first would have.
    session.execute(acquire(), early + 5_000_000L);
    PoolOutcome<AcquireAnswer> late = session.execute(acquire(), early);
    assertThat(late.value()).isInstanceOf(AcquireAnswer.Granted.class);
    assertThat(late.atIssuersReading()).isFalse();
  }

  @Test
  void aCommandThatWaitedForTheLockIsNotAtTheReading() throws Exception {
    AtomicReference<Thread> waiter = new AtomicReference<>();
    Future<PoolOutcome<AcquireAnswer>> waited;
    pool.lock();
    try {
      long reading = CLOCK.monotonicNanos();
      waited =
          other.submit(
              () -> {
                waiter.set(Thread.currentThread());
                return session.execute(acquire(), reading);
              });
      while (waiter.get() == null || !pool.waitedForBy(waiter.get())) {
        Thread.onSpinWait();
      }
    } finally {
      pool.unlock();
    }
    PoolOutcome<AcquireAnswer> o = waited.get();
    assertThat(o.value()).isInstanceOf(AcquireAnswer.Granted.class);
    assertThat(o.atIssuersReading()).isFalse();
    // The lock is free again, and the next command at a fresh reading is at it.
    assertThat(
            CompletableFuture.supplyAsync(
                    () -> session.execute(acquire(), CLOCK.monotonicNanos()), other)
                .join()
                .atIssuersReading())
        .isTrue();
  }

  private PoolCommand.Acquire acquire() {
    return new PoolCommand.Acquire("owner", ++ref, 1, -1, -1, false, false, "");
  }
}
