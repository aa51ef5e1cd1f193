/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Renders a {@link PgBench} run as Markdown: a preamble, the tables, and the aims. */
final class PgReport {
  private PgReport() {}

  /**
   * Renders the report.
   *
   * @param settings what was run
   * @param environment one line on the JVM, the machine and the server
   * @param throughput one result per shape and variant
   * @param wake wake latency per variant
   * @param crash Sluice's crash reclaim per heartbeat timeout
   * @param naiveCrash the naive semaphore's crash round
   * @return Markdown, ending with a line break
   */
  static String render(
      PgBenchSettings settings,
      String environment,
      List<PgThroughputRun.Result> throughput,
      List<PgWakeLatencyRun.Outcome> wake,
      List<PgCrashReclaimRun.SluiceOutcome> crash,
      PgCrashReclaimRun.NaiveOutcome naiveCrash) {
    StringBuilder md = new StringBuilder();
    md.append(environment).append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Throughput: cap %d, a cycle is acquire(1), the tiny task (`Blackhole.consumeCPU(10)`),"
                + " release; Bucket4j's cycle is `tryConsume(1)` and the task (it holds nothing);"
                + " warm-up %s s, window %s s per row, a fresh cap each. \"tx/cycle\": writing"
                + " transactions the server started in the window (any client's) per cycle."
                + " Wake latency: %d rounds after %d unrecorded. Percentiles are nearest-rank.%n%n",
            PgBenchSettings.CAP,
            seconds(settings.warmup().toMillis()),
            seconds(settings.window().toMillis()),
            settings.wakeRounds(),
            settings.wakeWarmup()));
    md.append(
        "| processes × threads | variant | cycles/s (all) | per process in window | spread"
            + " max/min | tx/cycle | ÷ Bucket4j | ÷ naive | notes |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (PgThroughputRun.Result r : throughput) {
      row(
          md,
          r.shape().toString(),
          r.variant().label(),
          String.format(Locale.ROOT, "%,.0f", r.cyclesPerSecond()),
          Arrays.stream(r.perProcess())
              .mapToObj(n -> String.format(Locale.ROOT, "%,d", n))
              .collect(Collectors.joining(" / ")),
          r.perProcess().length == 1 ? "" : spread(r.spread()),
          r.total() == 0
              ? ""
              : String.format(Locale.ROOT, "%.2f", (double) r.transactions() / r.total()),
          ratio(r, throughput, PgVariant.BUCKET4J),
          ratio(r, throughput, PgVariant.NAIVE),
          notes(r));
    }
    md.append("\n| latency | variant | p50 ms | p99 ms | notes |\n|---|---|---|---|---|\n");
    for (PgWakeLatencyRun.Outcome w : wake) {
      row(
          md,
          "wake: release in JVM A → acquire(4) returns in JVM B",
          w.variant().label(),
          millis(w.wake().p50Millis()),
          millis(w.wake().p99Millis()),
          "max "
              + millis(w.wake().maxMillis())
              + " ms, "
              + w.wake().samples()
              + " rounds; A's release call itself p50 "
              + millis(w.releaseCall().p50Millis())
              + " ms, p99 "
              + millis(w.releaseCall().p99Millis())
              + " ms");
    }
    for (PgCrashReclaimRun.SluiceOutcome c : crash) {
      row(
          md,
          "crash reclaim: SIGKILL of the holder → acquire(4) returns in another JVM",
          PgVariant.SLUICE.label() + ", heartbeat timeout " + c.heartbeat().toSeconds() + " s",
          millis(c.reclaim().p50Millis()),
          millis(c.reclaim().p99Millis()),
          "max "
              + millis(c.reclaim().maxMillis())
              + " ms, "
              + c.reclaim().samples()
              + " rounds, no expiration; SIGKILL → the JDK sees the holder's end: p50 "
              + millis(c.exit().p50Millis())
              + " ms");
    }
    if (naiveCrash != null) {
      row(
          md,
          "crash reclaim",
          PgVariant.NAIVE.label(),
          naiveCrash.admitted() ? "admitted" : "never",
          naiveCrash.admitted() ? "admitted" : "never",
          (naiveCrash.admitted() ? "admitted within " : "not admitted in ")
              + seconds(Math.round(naiveCrash.waitSeconds() * 1000))
              + " s after the kill; used = "
              + naiveCrash.usedAfter()
              + " with no live holder, 1 round");
    }
    md.append(PgAims.render(throughput));
    return md.toString();
  }

  private static String ratio(
      PgThroughputRun.Result r, List<PgThroughputRun.Result> all, PgVariant peer) {
    if (r.variant() == peer) {
      return "";
    }
    return find(all, peer, r.shape())
        .map(p -> String.format(Locale.ROOT, "%.2f×", r.cyclesPerSecond() / p.cyclesPerSecond()))
        .orElse("");
  }

  /** The result of {@code variant} in {@code shape}, if it was run. */
  static Optional<PgThroughputRun.Result> find(
      List<PgThroughputRun.Result> all, PgVariant variant, PgBenchSettings.Shape shape) {
    return all.stream().filter(p -> p.variant() == variant && p.shape().equals(shape)).findFirst();
  }

  private static String notes(PgThroughputRun.Result r) {
    if (r.variant() == PgVariant.NAIVE) {
      return String.format(
          Locale.ROOT,
          "%.2f updates found the cap full per admission",
          r.total() == 0 ? 0.0 : (double) r.empty() / r.total());
    }
    if (r.variant() == PgVariant.BUCKET4J) {
      return String.format(Locale.ROOT, "%,d consumes refused", r.empty());
    }
    return "";
  }

  static String spread(double s) {
    return Double.isInfinite(s) ? "∞ (a process did none)" : String.format(Locale.ROOT, "%.2f", s);
  }

  static void row(StringBuilder md, String... cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  static String millis(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%.2f" : "%.1f", ms);
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0
        ? Long.toString(millis / 1000)
        : String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }
}
