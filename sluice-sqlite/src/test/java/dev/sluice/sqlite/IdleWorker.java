/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.local.Wakeups;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code idle} mode of {@link PoolWorker}: a JVM with nothing but one pool, so that every
 * wake-up {@link Wakeups} counts in it is the pool's. It makes the pool busy (a holder, a waiter
 * granted by a release, a new holder), waits until the store applied all of it, then leaves the
 * pool idle, a lease still held, and counts the wake-ups of the window that follows. It prints
 * {@code IDLE ran=<the waiter's result> weight=<the held lease's weight> wakeups=<counted in the
 * window> firstAfterMillis=<when the first came, or -1> inspect=<counted for one inspection after
 * the window>} and exits.
 */
final class IdleWorker {
  private IdleWorker() {}

  static void run(Path dir, long windowMillis) throws Exception {
    LimiterConfig config =
        LimiterConfig.builder()
            .maxConcurrent(2)
            .minTime(Duration.ofMillis(5))
            .expiration(Duration.ofMinutes(5))
            .reservoir(100)
            .reservoirRefresh(100, Duration.ofMinutes(1))
            .build();
    String line;
    try (Limiter a = Limiter.open(SqliteStore.directory(dir), config);
        Limiter b = Limiter.open(SqliteStore.directory(dir), config)) {
      Lease held = a.acquire(2);
      CompletableFuture<Integer> queued = b.schedule(() -> 1);
      held.close();
      int ran = queued.get(20, TimeUnit.SECONDS);
      try (Lease stillHeld = a.acquire(1)) {
        // Applied in order: once the inspection is answered, nothing sent before it is pending.
        a.inspect();
        long start = Wakeups.count();
        long began = System.nanoTime();
        long deadline = began + TimeUnit.MILLISECONDS.toNanos(windowMillis);
        long seen = start;
        long firstAfter = -1;
        // The window is the measured quiet interval: this thread sleeps until a wake-up is counted
        // or the window ends, and notes each wake-up.
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
          long now = Wakeups.awaitAfter(seen, Duration.ofNanos(left));
          if (now != seen && firstAfter < 0) {
            firstAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
          }
          seen = now;
        }
        a.inspect();
        long inspect = Wakeups.count() - seen;
        line =
            "IDLE ran="
                + ran
                + " weight="
                + stillHeld.admission().weight()
                + " wakeups="
                + (seen - start)
                + " firstAfterMillis="
                + firstAfter
                + " inspect="
                + inspect;
      }
    }
    System.out.println(line);
    System.out.flush();
    System.exit(0);
  }
}
