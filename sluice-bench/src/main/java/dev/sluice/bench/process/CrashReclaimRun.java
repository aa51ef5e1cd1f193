/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Measurement 3: how long capacity held by a process that is killed takes to reach a waiter in
 * another process. Each round uses a fresh pool: a {@link LeaseWorker} JVM acquires all {@link
 * Settings#CAP} units (no lease expiration is configured) and reports it; the harness itself opens
 * the pool and starts {@code acquire(CAP)} on a thread of its own; once that request is in the
 * queue (and 5 ms more), the harness reads {@link System#nanoTime()}, sends SIGKILL with {@link
 * Process#destroyForcibly()}, and measures until its acquire returns.
 *
 * <p>The same set-up on the naive semaphore ({@link #naive}) is run once: nothing there can return
 * a dead process's units, so it reports whether the waiter got in within a bounded wait and what
 * {@code used} reads afterwards.
 */
final class CrashReclaimRun {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration REPLY = Duration.ofSeconds(30);
  private static final long SETTLE_MILLIS = 5;

  private CrashReclaimRun() {}

  /**
   * What became of the naive semaphore's waiter after its holder was killed.
   *
   * @param admitted whether it was admitted within the wait
   * @param waitSeconds how long it tried
   * @param usedAfter the {@code used} column after the wait, with no live holder
   */
  record NaiveOutcome(boolean admitted, double waitSeconds, long usedAfter) {}

  /**
   * The Sluice rounds.
   *
   * @param reclaim SIGKILL to the waiter's admission
   * @param exit SIGKILL to the JDK seeing the holder's process end, for reference: the kernel frees
   *     the holder's locks and sockets as the process ends, so this bounds how soon any reclaim can
   *     begin
   */
  record SluiceOutcome(Percentiles reclaim, Percentiles exit) {}

  /**
   * Runs the Sluice rounds.
   *
   * @param launcher starts the holders
   * @param runDir the run's directory; each round makes a fresh pool in it
   * @param settings the numbers of rounds
   * @return the latencies of the recorded rounds
   * @throws Exception if a round fails
   */
  static SluiceOutcome sluice(JvmLauncher launcher, Path runDir, Settings settings)
      throws Exception {
    List<Long> reclaim = new ArrayList<>();
    List<Long> exit = new ArrayList<>();
    int rounds = settings.crashWarmup() + settings.crashRounds();
    for (int round = 0; round < rounds; round++) {
      long[] latency = sluiceRound(launcher, runDir, "crash-" + round);
      if (round >= settings.crashWarmup()) {
        reclaim.add(latency[0]);
        exit.add(latency[1]);
      }
    }
    return new SluiceOutcome(Percentiles.ofMicros(reclaim), Percentiles.ofMicros(exit));
  }

  /** Returns microseconds from the kill to the admission and to the holder's end. */
  private static long[] sluiceRound(JvmLauncher launcher, Path runDir, String name)
      throws Exception {
    Path pool = Variant.SLUICE.prepare(runDir, name);
    try (Child holder =
        launcher.start(name + "-holder", LeaseWorker.class, Variant.SLUICE, pool, Settings.CAP)) {
      return KilledHolderRound.run(
          holder,
          Settings.CAP,
          listener -> SluiceContender.open(pool, Settings.CAP, listener),
          SETTLE_MILLIS,
          REPLY);
    }
  }

  /**
   * Runs the naive round once.
   *
   * @param launcher starts the holder
   * @param runDir the run's directory; a fresh semaphore is made in it
   * @param settings how long the waiter tries
   * @return what happened
   * @throws Exception if the round fails
   */
  static NaiveOutcome naive(JvmLauncher launcher, Path runDir, Settings settings) throws Exception {
    Path file = Variant.NAIVE.prepare(runDir, "crash-naive");
    try (Child holder =
        launcher.start(
            "crash-naive-holder", LeaseWorker.class, Variant.NAIVE, file, Settings.CAP)) {
      holder.expect("ready", START);
      holder.send("acquire " + Settings.CAP);
      holder.expect("acquired", REPLY);
      holder.kill();
      holder.awaitExit(REPLY);
    }
    NaiveSemaphore semaphore = NaiveSemaphore.open(file, Settings.CAP);
    try (NaiveSemaphore.ThreadPermits permits = semaphore.forThread()) {
      boolean admitted = permits.tryAcquire(1, settings.naiveCrashWait());
      long used = semaphore.used();
      return new NaiveOutcome(admitted, settings.naiveCrashWait().toMillis() / 1000.0, used);
    }
  }
}
