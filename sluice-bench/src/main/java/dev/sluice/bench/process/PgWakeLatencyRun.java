/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Wake latency across JVMs on PostgreSQL, as {@link WakeLatencyRun} measures it on SQLite: two
 * {@link PgLeaseWorker} JVMs, A holds all {@link PgBenchSettings#CAP} units, B waits in {@code
 * acquire(CAP)}; from A's wall clock just before its release to B's just after its acquire
 * returned. For Sluice, A first watches the pool until B's request is queued; the naive semaphore's
 * B polls, so the harness only lets it start polling. Then 5 ms more in both.
 */
final class PgWakeLatencyRun {
  private static final Duration START = Duration.ofSeconds(60);
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
    List<Long> micros = new ArrayList<>();
    List<Long> releaseCalls = new ArrayList<>();
    try (Child a = start(launcher, target, variant, "a");
        Child b = start(launcher, target, variant, "b")) {
      a.expect("ready", START);
      b.expect("ready", START);
      int rounds = settings.wakeWarmup() + settings.wakeRounds();
      for (int round = 0; round < rounds; round++) {
        a.send("acquire " + PgBenchSettings.CAP);
        a.expect("acquired", REPLY);
        b.send("acquire " + PgBenchSettings.CAP);
        if (variant.isSluice()) {
          a.send("waiters 1");
          a.expect("waiters", REPLY);
        } else {
          Thread.sleep(NAIVE_START_MILLIS);
        }
        Thread.sleep(SETTLE_MILLIS);
        a.send("release");
        long[] released = a.expectNumbers("released", REPLY);
        long admitted = b.expectNumbers("acquired", REPLY)[0];
        b.send("release");
        b.expect("released", REPLY);
        if (round >= settings.wakeWarmup()) {
          micros.add(admitted - released[0]);
          releaseCalls.add(released[1] - released[0]);
        }
      }
      a.send("exit");
      b.send("exit");
      a.expect("bye", REPLY);
      b.expect("bye", REPLY);
    }
    return new Outcome(variant, Percentiles.ofMicros(micros), Percentiles.ofMicros(releaseCalls));
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
