/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;

/**
 * Sluice's SQLite store: {@code Limiter.open(SqliteStore.directory(dir),
 * LimiterConfig.builder().maxConcurrent(cap).build())}, one limiter per process shared by its
 * threads.
 */
final class SluiceContender implements Contender {
  private final Limiter limiter;

  private SluiceContender(Limiter limiter) {
    this.limiter = limiter;
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
  static SluiceContender open(Path directory, int cap, dev.sluice.LimiterListener listener) {
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
      Path directory, LimiterConfig config, dev.sluice.LimiterListener listener) {
    return new SluiceContender(
        Limiter.open(
            SqliteStore.directory(directory),
            config,
            dev.sluice.LimiterOptions.builder().listener(listener).build()));
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
    limiter.close();
  }
}
