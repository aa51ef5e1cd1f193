/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Crash reclaim on PostgreSQL, as {@link CrashReclaimRun} measures it on SQLite: each round a fresh
 * pool, a {@link PgLeaseWorker} JVM holding all {@link PgBenchSettings#CAP} units (no expiration),
 * the harness's own {@code acquire(CAP)} queued behind it in this JVM; SIGKILL of the holder, and
 * the time until that acquire returns. Both sides use the same owner heartbeat timeout. The naive
 * semaphore ({@link #naive}) is run once.
 */
final class PgCrashReclaimRun {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration REPLY = Duration.ofSeconds(120);

  /**
   * From the waiter's QUEUED event to the kill; {@code -Dsluice.bench.crashSettleMillis=N} sets
   * another, to measure a holder that dies well into the wait (after the waiter's JVM began to
   * watch its owner's lock) rather than right after the wait began.
   */
  private static final long SETTLE_MILLIS = Long.getLong("sluice.bench.crashSettleMillis", 5);

  private PgCrashReclaimRun() {}

  /**
   * Sluice's rounds at one heartbeat timeout.
   *
   * @param heartbeat the owners' heartbeat timeout
   * @param reclaim SIGKILL to the waiter's admission
   * @param exit SIGKILL to the JDK seeing the holder's process end, for reference
   */
  record SluiceOutcome(Duration heartbeat, Percentiles reclaim, Percentiles exit) {}

  /**
   * The naive semaphore's waiter after its holder was killed.
   *
   * @param admitted whether it got in within the wait
   * @param waitSeconds how long it tried
   * @param usedAfter {@code used} afterwards, with no live holder
   */
  record NaiveOutcome(boolean admitted, double waitSeconds, long usedAfter) {}

  /**
   * Runs {@code rounds} Sluice rounds at {@code heartbeat}.
   *
   * @param launcher starts the holders
   * @param base the run's schema
   * @param heartbeat the owners' heartbeat timeout, holder and waiter alike
   * @param rounds how many
   * @return the latencies
   * @throws Exception if a round fails
   */
  static SluiceOutcome sluice(JvmLauncher launcher, PgTarget base, Duration heartbeat, int rounds)
      throws Exception {
    List<Long> reclaim = new ArrayList<>();
    List<Long> exit = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      PgTarget target = base.named("crash_" + heartbeat.toSeconds() + "s_" + round);
      long[] latency = sluiceRound(launcher, target, heartbeat);
      reclaim.add(latency[0]);
      exit.add(latency[1]);
    }
    return new SluiceOutcome(heartbeat, Percentiles.ofMicros(reclaim), Percentiles.ofMicros(exit));
  }

  /** Microseconds from the kill to the admission and to the holder's end. */
  private static long[] sluiceRound(JvmLauncher launcher, PgTarget target, Duration heartbeat)
      throws Exception {
    try (Child holder = holder(launcher, target, PgVariant.SLUICE, heartbeat)) {
      return KilledHolderRound.run(
          holder,
          PgBenchSettings.CAP,
          listener -> PgVariant.SLUICE.openSluice(target, PgBenchSettings.CAP, heartbeat, listener),
          SETTLE_MILLIS,
          REPLY);
    }
  }

  /**
   * The naive semaphore, once: a holder of all units is killed, then a waiter tries for {@code
   * wait}.
   *
   * @param launcher starts the holder
   * @param base the run's schema
   * @param wait how long the waiter tries
   * @return what happened
   * @throws Exception if the round fails
   */
  static NaiveOutcome naive(JvmLauncher launcher, PgTarget base, Duration wait) throws Exception {
    PgTarget target = base.named("crash_naive");
    PgVariant.NAIVE.prepare(target);
    try (Child holder = holder(launcher, target, PgVariant.NAIVE, Duration.ZERO)) {
      holder.expect("ready", START);
      holder.send("acquire " + PgBenchSettings.CAP);
      holder.expect("acquired", REPLY);
      holder.kill();
      holder.awaitExit(REPLY);
    }
    PgNaiveSemaphore semaphore = PgNaiveSemaphore.open(target, PgBenchSettings.CAP);
    try (PgNaiveSemaphore.ThreadPermits permits = semaphore.forThread()) {
      boolean admitted = permits.tryAcquire(1, wait);
      return new NaiveOutcome(admitted, wait.toMillis() / 1000.0, semaphore.used());
    }
  }

  private static Child holder(
      JvmLauncher launcher, PgTarget target, PgVariant variant, Duration heartbeat)
      throws Exception {
    return launcher.start(
        target.name() + "-holder",
        PgLeaseWorker.class,
        variant.name(),
        target.url(),
        target.schema(),
        target.name(),
        PgBenchSettings.CAP,
        heartbeat.toMillis());
  }
}
