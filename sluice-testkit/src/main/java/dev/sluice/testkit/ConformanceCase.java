/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterOptions;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fixtures shared by the conformance cases: a fresh pool name and a manual clock per test, limiter
 * opening and closing, and waits on events with a generous safety timeout (never a sleep). Each
 * test also has a hard timeout, so a deadlock fails the test instead of hanging the build.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(NoSkippedCases.class)
public abstract class ConformanceCase {
  /** The safety net for waits on events that must happen; never a pacing delay. */
  protected static final Duration SAFETY = Duration.ofSeconds(20);

  private final StoreFactory stores;
  private final List<Limiter> opened = new ArrayList<>();

  /** A manual clock, given to the store and the limiters of this test. */
  protected final ManualClock clock = new ManualClock();

  /** A pool name unique to this test. */
  protected final String poolName = "pool-" + UUID.randomUUID().toString().substring(0, 8);

  /**
   * Creates the case.
   *
   * @param stores the store under test
   */
  protected ConformanceCase(StoreFactory stores) {
    this.stores = stores;
  }

  /** The store under test, for tests that need a second pool. */
  protected StoreFactory storeFactory() {
    return stores;
  }

  /** A handle on this test's pool, on the manual clock. */
  protected PoolStore store() {
    return stores.create(poolName, clock);
  }

  /** A handle on this test's pool, on the system clock (for tests with real threads and time). */
  protected PoolStore systemClockStore() {
    return stores.create(poolName, TimeSource.system());
  }

  /** Opens a limiter on this test's pool with the manual clock; closed after the test. */
  protected Limiter open(LimiterConfig config) {
    return track(Limiter.open(store(), config));
  }

  /** Opens a limiter with options on this test's pool; closed after the test. */
  protected Limiter open(LimiterConfig config, LimiterOptions options) {
    return track(Limiter.open(store(), config, options));
  }

  /**
   * Opens a limiter on this test's pool as a second owner, as a second process would be: its store
   * handle is wrapped, so the JVM does not share one owner between the two. Closed after the test.
   */
  protected Limiter openSecondOwner(LimiterConfig config) {
    return track(Limiter.open(new FailingStore(store()), config));
  }

  /** Registers a limiter to close after the test. */
  protected Limiter track(Limiter limiter) {
    opened.add(limiter);
    return limiter;
  }

  @AfterEach
  void closeOpened() throws Exception {
    for (Limiter l : opened) {
      l.closeAsync().toCompletableFuture().get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** Builds a configuration with only {@code maxConcurrent}. */
  protected static LimiterConfig cap(long maxConcurrent) {
    return LimiterConfig.builder().maxConcurrent(maxConcurrent).build();
  }

  /** Waits for a future and returns its value. */
  protected static <T> T await(Future<T> future) throws Exception {
    try {
      return future.get(SAFETY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    } catch (TimeoutException e) {
      throw new AssertionError("a future did not complete within the safety timeout", e);
    }
  }

  /** Waits for a future to fail and returns its cause. */
  protected static Throwable awaitFailure(CompletableFuture<?> future) throws Exception {
    try {
      future.get(SAFETY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.CancellationException e) {
      return e;
    } catch (TimeoutException e) {
      throw new AssertionError("a future did not complete within the safety timeout", e);
    }
    return fail("expected the future to fail, but it completed with " + future.join());
  }

  /**
   * Waits until the store has applied everything this JVM sent it for {@code limiter}'s pool, and
   * this JVM has handled the answers: a store applies one owner's operations in order, so an
   * inspection answers only after them. Tests on the manual clock call it before they move time or
   * count timers, because a store may apply operations on its own thread.
   */
  protected static void settled(Limiter limiter) {
    limiter.inspect();
  }

  /** Waits for a latch. */
  protected static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(SAFETY.toMillis(), TimeUnit.MILLISECONDS))
        .as("latch released within the safety timeout")
        .isTrue();
  }
}
