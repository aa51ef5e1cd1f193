/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Duration;

/**
 * Wake latency across JVMs on PostgreSQL, as {@link WakeLatencyRun} measures it on SQLite: two
 * {@link PgLeaseWorker} JVMs, A holds all {@link PgBenchSettings#CAP} units, B waits in {@code
 * acquire(CAP)}; from A's wall clock just before its release to B's just after its acquire
 * returned. For Sluice, A first watches the pool until B's request is queued; the naive semaphore's
 * B polls, so the harness only lets it start polling. Then 5 ms more in both.
 */
final class PgWakeLatencyRun {
  private static final Duration REPLY = Duration.ofSeconds(30);
  private static final long SETTLE_MILLIS = 5;
  private static final long NAIVE_START_MILLIS = 10;

  private PgWakeLatencyRun() {}

  /**
   * The recorded rounds of one variant.
   *
   * @param variant the cap
   * @param wake A's time before its release to B's admission
   * @param releaseCall how long A's release call took
   */
  record Outcome(PgVariant variant, Percentiles wake, Percentiles releaseCall) {}

  /**
   * Runs the rounds on a fresh cap.
   *
   * @param launcher starts the workers
   * @param base the run's schema
   * @param variant a Sluice variant or the naive semaphore
   * @param settings the numbers of rounds
   * @return the latencies of the recorded rounds
   * @throws Exception if a worker fails
   */
  static Outcome run(
      JvmLauncher launcher, PgTarget base, PgVariant variant, PgBenchSettings settings)
      throws Exception {
    PgTarget target = base.named("wake_" + variant.name().toLowerCase());
    variant.prepare(target);
    try (Child a = start(launcher, target, variant, "a");
        Child b = start(launcher, target, variant, "b")) {
      WakeRounds.Samples samples =
          WakeRounds.run(
              a,
              b,
              new WakeRounds.Plan(
                  PgBenchSettings.CAP,
                  settings.wakeWarmup(),
                  settings.wakeRounds(),
                  variant.isSluice(),
                  NAIVE_START_MILLIS,
                  SETTLE_MILLIS,
                  REPLY));
      return new Outcome(
          variant,
          Percentiles.ofMicros(samples.wake()),
          Percentiles.ofMicros(samples.releaseCalls()));
    }
  }

  private static Child start(JvmLauncher launcher, PgTarget t, PgVariant v, String side)
      throws Exception {
    return launcher.start(
        t.name() + "-" + side,
        PgLeaseWorker.class,
        v.name(),
        t.url(),
        t.schema(),
        t.name(),
        PgBenchSettings.CAP,
        PgBenchSettings.DEFAULT_HEARTBEAT.toMillis());
  }
}
