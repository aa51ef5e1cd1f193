/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders a {@link PgWorkflowBench} run as Markdown: a preamble and one table with ratios. */
final class PgWorkflowReport {
  private PgWorkflowReport() {}

  /**
   * One row of the table.
   *
   * @param round which round of the run it is, from 1
   * @param peer the engine
   * @param processes worker JVMs
   * @param rate workflows/s, or 0 for a latency row
   * @param latency the latency percentiles, or {@code null} for a throughput row
   * @param note what else to say
   */
  record Row(
      int round,
      PgWorkflowPeer peer,
      int processes,
      double rate,
      Percentiles latency,
      String note) {
    static Row throughput(
        int round,
        PgWorkflowPeer peer,
        int processes,
        int count,
        double seconds,
        long startMillis) {
      return new Row(
          round,
          peer,
          processes,
          count / seconds,
          null,
          String.format(
              Locale.ROOT,
              "%,d in %.2f s, of which %d ms starting the engine",
              count,
              seconds,
              startMillis));
    }

    static Row latency(int round, PgWorkflowPeer peer, int processes, Percentiles p) {
      return new Row(
          round,
          peer,
          processes,
          0,
          p,
          "max " + PgReport.millis(p.maxMillis()) + " ms, " + p.samples() + " rounds");
    }

    boolean isThroughput() {
      return latency == null;
    }

    /** Workflows/s of a throughput row, the p50 in milliseconds of a latency row. */
    double value() {
      return isThroughput() ? rate : latency.p50Millis();
    }

    /** Whether {@code other} is the same measurement in the same round. */
    boolean sameAs(Row other) {
      return round == other.round
          && processes == other.processes
          && isThroughput() == other.isThroughput();
    }
  }

  /**
   * Renders the report.
   *
   * @param s what was run
   * @param environment one line on the JVM, the machine and the server
   * @param rows the results
   * @return Markdown, ending with a line break
   */
  static String render(PgWorkflowSettings s, String environment, List<Row> rows) {
    StringBuilder md = new StringBuilder();
    md.append(environment).append("\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Each worker JVM runs %d executions at once on a HikariCP pool of %d connections (both"
                + " engines); DBOS's queue is polled every %d ms. Throughput: %,d three-step"
                + " executions enqueued, then the warmed workers (%,d executions run first on a"
                + " private schema) are let go; from go to the last result. Latency: enqueue →"
                + " result of a one-step execution, one at a time, %d rounds after %d"
                + " unrecorded; Sluice's harness waits on `Execution.result`, DBOS's reads the"
                + " status row every 0.2 ms (its handle's `getResult` reads it once a second)."
                + " Percentiles are nearest-rank.%n%n",
            s.workers(),
            s.pool(),
            s.dbosPoll().toMillis(),
            s.count(),
            s.warmup(),
            s.latencyRounds(),
            s.latencyWarmup()));
    md.append("| round | measurement | engine | worker JVMs | result | ÷ DBOS | notes |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      String round = Integer.toString(r.round());
      if (r.isThroughput()) {
        PgReport.row(
            md,
            round,
            "throughput, 3-step workflows",
            r.peer().label(),
            Integer.toString(r.processes()),
            String.format(Locale.ROOT, "%,.0f workflows/s", r.rate()),
            ratio(r, rows),
            r.note());
      } else {
        PgReport.row(
            md,
            round,
            "latency, 1-step workflow, enqueue → result",
            r.peer().label(),
            Integer.toString(r.processes()),
            "p50 "
                + PgReport.millis(r.latency().p50Millis())
                + " ms, p99 "
                + PgReport.millis(r.latency().p99Millis())
                + " ms",
            r.peer() == PgWorkflowPeer.DBOS ? "" : ratio(r, rows) + " (p50)",
            r.note());
      }
    }
    if (s.rounds() > 1) {
      md.append('\n').append(PgWorkflowMedians.render(rows));
    }
    return md.toString();
  }

  /** The DBOS row of the same measurement and round as {@code r}, if there is one. */
  static Optional<Row> dbosBeside(Row r, List<Row> all) {
    return all.stream().filter(p -> p.peer() == PgWorkflowPeer.DBOS && p.sameAs(r)).findFirst();
  }

  private static String ratio(Row r, List<Row> all) {
    if (r.peer() == PgWorkflowPeer.DBOS) {
      return "";
    }
    return dbosBeside(r, all)
        .map(p -> String.format(Locale.ROOT, "%.2f×", r.value() / p.value()))
        .orElse("");
  }
}
