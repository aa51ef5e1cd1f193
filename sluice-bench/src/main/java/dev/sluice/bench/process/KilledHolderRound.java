/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.Lease;
import dev.sluice.LimiterEvent;
import dev.sluice.LimiterListener;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One crash-reclaim round of a Sluice pool, the same on every store: a holder JVM takes every unit,
 * a waiter here queues for them, the holder is SIGKILLed, and the round times the kill to the
 * waiter's admission and to the JDK seeing the holder's end.
 *
 * <p>Not thread-safe: one round at a time. Blocks until the round ends.
 */
final class KilledHolderRound {
  private static final Duration START = Duration.ofSeconds(60);

  private KilledHolderRound() {}

  /** Opens the waiter's side of the pool, telling {@code listener} of each of its requests. */
  @FunctionalInterface
  interface WaiterSide {
    SluiceContender open(LimiterListener listener) throws Exception;
  }

  /**
   * Runs the round.
   *
   * @param holder the holder JVM, started and not yet ready
   * @param cap every unit of the pool
   * @param waiterSide opens the waiter's limiter
   * @param settleMillis the pause between the waiter's request being queued and the kill
   * @param reply how long any one step of the round may take
   * @return microseconds from the kill to the admission, and to the holder's end
   * @throws Exception if a step fails or takes longer than {@code reply}
   */
  static long[] run(Child holder, int cap, WaiterSide waiterSide, long settleMillis, Duration reply)
      throws Exception {
    holder.expect("ready", START);
    holder.send("acquire " + cap);
    holder.expect("acquired", reply);
    CompletableFuture<Void> queued = new CompletableFuture<>();
    try (SluiceContender side =
        waiterSide.open(
            e -> {
              if (e.kind() == LimiterEvent.Kind.QUEUED) {
                queued.complete(null);
              }
            })) {
      CompletableFuture<Long> admittedAt = new CompletableFuture<>();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  Lease lease = side.limiter().acquire(cap);
                  long now = System.nanoTime();
                  lease.close();
                  admittedAt.complete(now);
                } catch (Throwable e) {
                  admittedAt.completeExceptionally(e);
                }
              },
              "crash-waiter");
      waiter.start();
      queued.get(reply.toSeconds(), TimeUnit.SECONDS);
      CompletableFuture<Long> exitedAt = holder.exitNanos();
      // The pause lets the holder's side settle after the waiter queued: a benchmark's fixed delay,
      // not a wait for a condition.
      Thread.sleep(settleMillis);
      long killedAt = System.nanoTime();
      holder.kill();
      long admitted = admittedAt.get(reply.toSeconds(), TimeUnit.SECONDS);
      long exited = exitedAt.get(reply.toSeconds(), TimeUnit.SECONDS);
      waiter.join();
      return new long[] {(admitted - killedAt) / 1_000, (exited - killedAt) / 1_000};
    }
  }
}
