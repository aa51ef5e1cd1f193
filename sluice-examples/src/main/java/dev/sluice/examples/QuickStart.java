/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.examples;

import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.PoolSnapshot;
import dev.sluice.ScheduleOptions;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The README's quick start: eight calls to a slow "service" through a limiter that allows two at a
 * time, 100 ms apart, from a reservoir of ten tokens, on a SQLite pool that every process on the
 * machine could share. Prints when each call started, so the cap and the spacing are visible, then
 * what the pool looks like. Each run uses a fresh pool directory, so it starts with a full
 * reservoir (a pool keeps its balance across runs).
 */
public final class QuickStart {
  private QuickStart() {}

  /**
   * Runs the example.
   *
   * @param args ignored
   * @throws Exception if a call fails
   */
  public static void main(String[] args) throws Exception {
    LimiterConfig config =
        LimiterConfig.builder()
            .maxConcurrent(2)
            .minTime(Duration.ofMillis(100))
            .expiration(Duration.ofSeconds(30))
            .reservoir(10)
            .build();
    Path dir = Files.createTempDirectory("sluice-quick-start-").resolve("pool");
    System.out.println("pool directory: " + dir);
    long start = System.nanoTime();
    try (Limiter limiter = Limiter.open(SqliteStore.directory(dir), config)) {
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 1; i <= 8; i++) {
        int n = i;
        calls.add(
            limiter.schedule(
                admission -> {
                  long at = (System.nanoTime() - start) / 1_000_000;
                  Thread.sleep(250); // the "service" takes a quarter of a second
                  return String.format(
                      "call %d started at %4d ms, lease %d, fencing token %d",
                      n, at, admission.leaseId(), admission.fencingToken());
                },
                ScheduleOptions.builder().queueTimeout(Duration.ofSeconds(10)).build()));
      }
      for (CompletableFuture<String> call : calls) {
        System.out.println(call.join());
      }
      try (Lease lease = limiter.acquire(2)) {
        System.out.println("holding weight " + lease.admission().weight() + " on this thread");
      }
      PoolSnapshot pool = limiter.inspect();
      System.out.println(
          "reservoir left: "
              + limiter.currentReservoir().orElseThrow()
              + ", active weight: "
              + pool.activeWeight()
              + ", trace entries: "
              + pool.trace().size());
    }
  }
}
