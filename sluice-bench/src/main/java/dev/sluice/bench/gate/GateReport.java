/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import java.util.Locale;

/** Renders a run's results as a short preamble and two Markdown tables. */
final class GateReport {
  private static final double AIM_SEM = 0.5;
  private static final double AIM_TRIVIAL = 1.2;

  private GateReport() {}

  /**
   * Renders the report.
   *
   * @param options what was run
   * @param environment one line on the JVM, the machine and the file system
   * @param calls measurement 1; its first row is Sluice
   * @param wake measurement 2
   * @return Markdown, ending with a line break
   */
  static String render(
      BenchOptions options, String environment, CallTimes.Outcome calls, WakeRounds.Outcome wake) {
    StringBuilder md = new StringBuilder();
    md.append(environment).append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Per call: one call at a time on an idle gate (pool `%s` of capacity %d, sem -j %d),"
                + " %d unrecorded calls of each variant, then %d recorded ones round-robin, each"
                + " round starting one variant later. Wall time in the harness from"
                + " ProcessBuilder.start to waitFor (the JDK's spawn is in every row). JVM options"
                + " of the trivial JVM: `%s`. Percentiles are nearest-rank.%n%n",
            CallTimes.POOL,
            CallTimes.CAPACITY,
            CallTimes.CAPACITY,
            options.warmup(),
            options.calls(),
            String.join(" ", options.jvmOptions())));
    md.append(
        "| variant | command | calls | mean ms | p50 ms | p90 ms | max ms |"
            + " sluice ÷ this (mean / p50) |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    Summary sluice = calls.rows().get(0).time();
    for (CallTimes.Row r : calls.rows()) {
      Summary s = r.time();
      row(
          md,
          r.variant().label(),
          "`" + r.variant().shown() + "`",
          "" + s.samples(),
          millis(s.meanMillis()),
          millis(s.p50Millis()),
          millis(s.p90Millis()),
          millis(s.maxMillis()),
          r == calls.rows().get(0) ? "—" : ratios(sluice, s));
    }
    Summary sem = calls.rows().get(1).time();
    Summary trivial = calls.rows().get(3).time();
    md.append(
        String.format(
            Locale.ROOT,
            "%nAims: sluice ≤ %.1f × sem per call: %s (%s); stretch, sluice ≤ %.1f × the trivial"
                + " JVM: %s (%s). Of a recorded sluice call, from its events (millisecond times):"
                + " `granted` → `started` (spawn of setsid + the held-back sh, bind) p50 %s ms,"
                + " p90 %s ms; `started` → `released` (go signal, exec of true, exit noticed,"
                + " release) p50 %s ms, p90 %s ms.%n%n",
            AIM_SEM,
            ratios(sluice, sem),
            verdict(sluice, sem, AIM_SEM),
            AIM_TRIVIAL,
            ratios(sluice, trivial),
            verdict(sluice, trivial, AIM_TRIVIAL),
            millis(calls.grantedToStarted().p50Millis()),
            millis(calls.grantedToStarted().p90Millis()),
            millis(calls.startedToReleased().p50Millis()),
            millis(calls.startedToReleased().p90Millis())));
    md.append(
        String.format(
            Locale.ROOT,
            "Wake latency: pool `%s` of capacity 1, %d rounds after %d unrecorded; B is queued"
                + " (its `queued` event seen) and %d ms have passed before A's command is let go."
                + " Stamps are `date +%%s%%N`; event times have millisecond resolution.%n%n",
            WakeRounds.POOL,
            options.wakeRounds(),
            options.wakeWarmup(),
            WakeRounds.SETTLE_MILLIS));
    md.append("| measurement | rounds | p50 ms | p90 ms | max ms | mean ms | includes |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    wakeRow(
        md,
        "**A's command ends → B's command starts**",
        wake.latency(),
        "A's `sluice run` noticing the exit, the release transaction and pulse, B's wake and"
            + " claim, B's fork/exec of setsid + sh, bind, go signal, exec of sh + date");
    wakeRow(
        md,
        "of which A's end stamp → A's `released` event",
        wake.toReleased(),
        "A's JVM sees its child exit; release transaction (the event time is taken inside it)");
    wakeRow(
        md,
        "of which `released` → B's `claimed` event",
        wake.toClaimed(),
        "the rest of the release transaction, the pulse, B's wake, B's claim transaction");
    wakeRow(
        md,
        "of which `claimed` → B's `started` event",
        wake.toStarted(),
        "B spawns setsid + sh held back on its start FIFO (the first ProcessBuilder.start of B's"
            + " JVM) and binds the permit to it");
    wakeRow(
        md,
        "of which `started` → B's start stamp",
        wake.toStamp(),
        "B's go signal; the held-back sh execs the command, sh -c, which runs date");
    return md.toString();
  }

  private static void wakeRow(StringBuilder md, String what, Summary s, String includes) {
    row(
        md,
        what,
        "" + s.samples(),
        millis(s.p50Millis()),
        millis(s.p90Millis()),
        millis(s.maxMillis()),
        millis(s.meanMillis()),
        includes);
  }

  private static String ratios(Summary sluice, Summary other) {
    return String.format(
        Locale.ROOT,
        "%.2f / %.2f",
        sluice.meanMillis() / other.meanMillis(),
        sluice.p50Millis() / other.p50Millis());
  }

  private static String verdict(Summary sluice, Summary other, double aim) {
    boolean mean = sluice.meanMillis() <= aim * other.meanMillis();
    boolean p50 = sluice.p50Millis() <= aim * other.p50Millis();
    return mean && p50 ? "met" : mean || p50 ? "met on one of mean and p50" : "not met";
  }

  private static void row(StringBuilder md, String... cells) {
    md.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  private static String millis(double ms) {
    return String.format(Locale.ROOT, Math.abs(ms) < 10 ? "%.2f" : "%.1f", ms);
  }
}
