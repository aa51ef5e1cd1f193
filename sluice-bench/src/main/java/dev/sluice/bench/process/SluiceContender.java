/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterListener;
import dev.sluice.LimiterOptions;
import dev.sluice.spi.PoolStore;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;

/**
 * A Sluice pool, one limiter per process shared by its threads: by default the SQLite store, {@code
 * Limiter.open(SqliteStore.directory(dir), LimiterConfig.builder().maxConcurrent(cap).build())};
 * any other store through {@link #open(PoolStore, LimiterConfig, LimiterListener, AutoCloseable)}.
 */
final class SluiceContender implements Contender {
  private final Limiter limiter;
  private final AutoCloseable resources;

  private SluiceContender(Limiter limiter, AutoCloseable resources) {
    this.limiter = limiter;
    this.resources = resources;
  }

  /**
   * Opens the pool in {@code directory}, creating it on first use.
   *
   * @param directory the pool directory
   * @param cap {@code maxConcurrent}
   * @return the contender
   */
  static SluiceContender open(Path directory, int cap) {
    return open(directory, cap, e -> {});
  }

  /** Opens the pool like {@link #open(Path, int)}, telling {@code listener} of each request. */
  static SluiceContender open(Path directory, int cap, LimiterListener listener) {
    return open(directory, LimiterConfig.builder().maxConcurrent(cap).build(), listener);
  }

  /** Opens the pool like {@link #open(Path, int)} with {@code localHandOffs(handOffs)}. */
  static SluiceContender open(Path directory, int cap, int handOffs) {
    return open(
        directory,
        LimiterConfig.builder().maxConcurrent(cap).localHandOffs(handOffs).build(),
        e -> {});
  }

  private static SluiceContender open(
      Path directory, LimiterConfig config, LimiterListener listener) {
    return open(SqliteStore.directory(directory), config, listener, () -> {});
  }

  /**
   * Opens the pool of {@code store}, telling {@code listener} of each request.
   *
   * @param store the pool
   * @param config its configuration
   * @param listener told of each request
   * @param resources closed after the limiter (a connection pool, say)
   * @return the contender
   */
  static SluiceContender open(
      PoolStore store, LimiterConfig config, LimiterListener listener, AutoCloseable resources) {
    return new SluiceContender(
        Limiter.open(store, config, LimiterOptions.builder().listener(listener).build()),
        resources);
  }

  /** Returns the limiter, for {@link Limiter#inspect()}. */
  Limiter limiter() {
    return limiter;
  }

  @Override
  public Permits forThread() {
    return new Permits() {
      private Lease held;

      @Override
      public void acquire(int weight) throws InterruptedException {
        held = limiter.acquire(weight);
      }

      @Override
      public void release() {
        Lease lease = held;
        held = null;
        lease.close();
      }

      @Override
      @SuppressWarnings("try") // the lease is held, not read
      public void cycle() throws InterruptedException {
        try (Lease l = limiter.acquire(1)) {}
      }

      @Override
      public void close() {
        if (held != null) {
          release();
        }
      }
    };
  }

  @Override
  public void close() {
    try (resources) {
      limiter.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot close what the pool used: " + e, e);
    }
  }
}
