/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.bench.process.PgWorkflowReport.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The summary of a {@link PgWorkflowBench} run of several rounds, as Markdown: for each measurement
 * and number of worker JVMs, each engine's median, the median of the rounds' ratios (each round's
 * Sluice row over the DBOS row beside it, run minutes apart) with their range, and how many rounds
 * fell on the wrong side of 1.0× (fewer workflows/s than DBOS, or a higher p50).
 */
final class PgWorkflowMedians {
  private PgWorkflowMedians() {}

  static String render(List<Row> rows) {
    StringBuilder md = new StringBuilder();
    md.append(
        "| measurement | worker JVMs | Sluice, median | DBOS, median | Sluice ÷ DBOS, median of"
            + " the rounds | lowest – highest | rounds on the wrong side of 1.0× |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (boolean throughput : new boolean[] {true, false}) {
      for (int processes = 1; processes <= 2; processes++) {
        summarize(md, rows, throughput, processes);
      }
    }
    return md.toString();
  }

  private static void summarize(
      StringBuilder md, List<Row> rows, boolean throughput, int processes) {
    List<Double> sluice = new ArrayList<>();
    List<Double> dbos = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    for (Row r : rows) {
      if (r.isThroughput() != throughput || r.processes() != processes) {
        continue;
      }
      if (r.peer() == PgWorkflowPeer.DBOS) {
        dbos.add(r.value());
      } else {
        sluice.add(r.value());
        PgWorkflowReport.dbosBeside(r, rows).ifPresent(d -> ratios.add(r.value() / d.value()));
      }
    }
    if (sluice.isEmpty() && dbos.isEmpty()) {
      return;
    }
    long wrong = ratios.stream().filter(x -> throughput ? x < 1.0 : x > 1.0).count();
    PgReport.row(
        md,
        throughput ? "throughput, 3-step workflows/s" : "latency p50, 1-step workflow (ms)",
        Integer.toString(processes),
        value(sluice, throughput),
        value(dbos, throughput),
        ratios.isEmpty() ? "" : times(median(ratios)),
        ratios.isEmpty()
            ? ""
            : times(ratios.stream().min(Double::compare).orElseThrow())
                + " – "
                + times(ratios.stream().max(Double::compare).orElseThrow()),
        ratios.isEmpty() ? "" : wrong + " of " + ratios.size());
  }

  private static String value(List<Double> values, boolean throughput) {
    if (values.isEmpty()) {
      return "";
    }
    double m = median(values);
    return throughput ? String.format(Locale.ROOT, "%,.0f", m) : PgReport.millis(m);
  }

  private static String times(double ratio) {
    return String.format(Locale.ROOT, "%.2f×", ratio);
  }

  /** The median; of an even count, the mean of the middle two. */
  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
