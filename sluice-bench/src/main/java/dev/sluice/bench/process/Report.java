/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Renders a run's results as a short preamble and one Markdown table. */
final class Report {
  private Report() {}

  /**
   * Renders the report.
   *
   * @param settings what was run
   * @param environment one line on the JVM, the machine and the file system
   * @param throughput measurement 1, one result per variant and process count
   * @param wake measurement 2, with the duration of the release call for reference
   * @param crash measurement 3, Sluice, with the holder's exit time for reference
   * @param naiveCrash measurement 3, naive semaphore
   * @return Markdown, ending with a line break
   */
  static String render(
      Settings settings,
      String environment,
      List<ThroughputRun.Result> throughput,
      WakeLatencyRun.Outcome wake,
      CrashReclaimRun.SluiceOutcome crash,
      CrashReclaimRun.NaiveOutcome naiveCrash) {
    StringBuilder md = new StringBuilder();
    md.append(environment).append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Throughput: cap %d, %d threads per process, empty task, warm-up %s s, window %s s per"
                + " row. Wake latency: %d rounds after %d unrecorded. Crash reclaim: %d rounds"
                + " after %d unrecorded, a fresh pool each. Percentiles are nearest-rank.%n%n",
            Settings.CAP,
            settings.threads(),
            seconds(settings.warmup().toMillis()),
            seconds(settings.window().toMillis()),
            settings.wakeRounds(),
            settings.wakeWarmup(),
            settings.crashRounds(),
            settings.crashWarmup()));
    md.append(
        "| measurement | variant | processes × threads | cycles/s (all processes) |"
            + " cycles per process in window | spread max/min | p50 ms | p99 ms | notes |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (ThroughputRun.Result r : throughput) {
      row(
          md,
          "Throughput, acquire+release",
          r.variant().label(),
          r.processes() + " × " + r.threads(),
          String.format(Locale.ROOT, "%,.0f", r.cyclesPerSecond()),
          Arrays.stream(r.perProcess())
              .mapToObj(n -> String.format(Locale.ROOT, "%,d", n))
              .collect(Collectors.joining(" / ")),
          Double.isInfinite(r.spread())
              ? "∞ (a process did none)"
              : String.format(Locale.ROOT, "%.2f", r.spread()),
          "",
          "",
          throughputNotes(r, throughput));
    }
    row(
        md,
        "Wake latency, release in A → acquire(4) returns in B",
        Variant.SLUICE.label(),
        "2 × 1",
        "",
        "",
        "",
        millis(wake.wake().p50Millis()),
        millis(wake.wake().p99Millis()),
        "max "
            + millis(wake.wake().maxMillis())
            + " ms, "
            + wake.wake().samples()
            + " rounds. Of which A's release call itself (until the store applied it): p50 "
            + millis(wake.releaseCall().p50Millis())
            + " ms, p99 "
            + millis(wake.releaseCall().p99Millis())
            + " ms");
    row(
        md,
        "Crash reclaim, SIGKILL of the holder → acquire(4) returns",
        Variant.SLUICE.label(),
        "2 × 1",
        "",
        "",
        "",
        millis(crash.reclaim().p50Millis()),
        millis(crash.reclaim().p99Millis()),
        "max "
            + millis(crash.reclaim().maxMillis())
            + " ms, "
            + crash.reclaim().samples()
            + " rounds; no expiration. For reference, SIGKILL → the JDK sees the holder's"
            + " process end: p50 "
            + millis(crash.exit().p50Millis())
            + " ms, p99 "
            + millis(crash.exit().p99Millis())
            + " ms");
    row(
        md,
        "Crash reclaim, SIGKILL of the holder → acquire returns",
        Variant.NAIVE.label(),
        "2 × 1",
        "",
        "",
        "",
        naiveCrash.admitted() ? "admitted" : "never",
        naiveCrash.admitted() ? "admitted" : "never",
        (naiveCrash.admitted() ? "admitted within " : "not admitted in ")
            + seconds(Math.round(naiveCrash.waitSeconds() * 1000))
            + " s after the kill; used = "
            + naiveCrash.usedAfter()
            + " with no live holder, 1 round");
    return md.toString();
  }

  private static String throughputNotes(
      ThroughputRun.Result r, List<ThroughputRun.Result> throughput) {
    if (r.variant() != Variant.NAIVE) {
      return throughput.stream()
          .filter(n -> n.variant() == Variant.NAIVE && n.processes() == r.processes())
          .findFirst()
          .map(
              n ->
                  String.format(
                      Locale.ROOT, "%.2f× naive", r.cyclesPerSecond() / n.cyclesPerSecond()))
          .orElse("");
    }
    String notes =
        String.format(
            Locale.ROOT,
            "%.1f updates found the cap full per admission",
            r.total() == 0 ? 0.0 : (double) r.emptyUpdates() / r.total());
    if (r.busyErrors() > 0) {
      notes += String.format(Locale.ROOT, "; %,d SQLITE_BUSY after 5 s", r.busyErrors());
    }
    return notes;
  }

  private static void row(StringBuilder md, String... cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%.2f" : "%.1f", ms);
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0
        ? Long.toString(millis / 1000)
        : String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }
}
