/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Measurement 2, Sluice only: how long a waiter in one process takes to be admitted after another
 * process releases the capacity it waits for. Two {@link LeaseWorker} JVMs, A and B, on one fresh
 * pool with a cap of {@link Settings#CAP}. Each round:
 *
 * <ol>
 *   <li>A acquires all units;
 *   <li>B starts {@code acquire(CAP)}, which waits;
 *   <li>A polls the pool until B's request is in the queue; the harness then waits 5 ms more so
 *       that B's thread is parked;
 *   <li>A reads the wall clock and releases; B reads the wall clock when its acquire returns;
 *   <li>B releases, and the next round begins.
 * </ol>
 *
 * The latency is B's time minus A's time before the release, in wall-clock microseconds of the one
 * machine clock. How long A's release call itself took (it returns once the store has applied the
 * release) is recorded too, for reference.
 */
final class WakeLatencyRun {
  private static final Duration REPLY = Duration.ofSeconds(30);
  private static final long SETTLE_MILLIS = 5;

  private WakeLatencyRun() {}

  /**
   * The recorded rounds.
   *
   * @param wake A's time before its release to B's admission
   * @param releaseCall how long A's release call took
   */
  record Outcome(Percentiles wake, Percentiles releaseCall) {}

  /**
   * Runs the rounds.
   *
   * @param launcher starts the workers
   * @param runDir the run's directory; a fresh pool is made in it
   * @param settings the numbers of rounds
   * @return the latencies of the recorded rounds
   * @throws Exception if a worker fails
   */
  static Outcome run(JvmLauncher launcher, Path runDir, Settings settings) throws Exception {
    Path pool = Variant.SLUICE.prepare(runDir, "wake");
    try (Child a = launcher.start("wake-a", LeaseWorker.class, Variant.SLUICE, pool, Settings.CAP);
        Child b = launcher.start("wake-b", LeaseWorker.class, Variant.SLUICE, pool, Settings.CAP)) {
      WakeRounds.Samples samples =
          WakeRounds.run(
              a,
              b,
              new WakeRounds.Plan(
                  Settings.CAP,
                  settings.wakeWarmup(),
                  settings.wakeRounds(),
                  true,
                  0,
                  SETTLE_MILLIS,
                  REPLY));
      return new Outcome(
          Percentiles.ofMicros(samples.wake()), Percentiles.ofMicros(samples.releaseCalls()));
    }
  }
}
