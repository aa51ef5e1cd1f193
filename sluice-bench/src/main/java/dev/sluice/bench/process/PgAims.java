/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.util.List;
import java.util.Locale;

/**
 * Issue 15's limiter aims, judged on one run: at least 5× Bucket4j's cycles/s at 8 and 32 threads,
 * and a per-JVM spread of at most 1.2 with several JVMs.
 */
final class PgAims {
  private static final double BUCKET4J_FACTOR = 5.0;
  private static final double MAX_SPREAD = 1.2;

  private PgAims() {}

  /** The aims table, or nothing if the rows it needs were not run. */
  static String render(List<PgThroughputRun.Result> throughput) {
    StringBuilder md = new StringBuilder();
    md.append("\n| aim | variant | measured | |\n|---|---|---|---|\n");
    int rows = 0;
    for (PgThroughputRun.Result r : throughput) {
      if (!r.variant().isSluice()) {
        continue;
      }
      if (r.shape().processes() == 1 && r.shape().threads() >= 8) {
        var peer = PgReport.find(throughput, PgVariant.BUCKET4J, r.shape());
        if (peer.isPresent()) {
          double x = r.cyclesPerSecond() / peer.get().cyclesPerSecond();
          PgReport.row(
              md,
              "≥ 5× Bucket4j cycles/s, " + r.shape(),
              r.variant().label(),
              String.format(Locale.ROOT, "%.2f×", x),
              verdict(x >= BUCKET4J_FACTOR, x / BUCKET4J_FACTOR));
          rows++;
        }
      }
      if (r.shape().processes() > 1) {
        var peer = PgReport.find(throughput, PgVariant.BUCKET4J, r.shape());
        if (peer.isPresent()) {
          double x = r.cyclesPerSecond() / peer.get().cyclesPerSecond();
          PgReport.row(
              md,
              "≥ 5× Bucket4j cycles/s, " + r.shape() + " (the issue names 8 and 32 threads)",
              r.variant().label(),
              String.format(Locale.ROOT, "%.2f×", x),
              verdict(x >= BUCKET4J_FACTOR, x / BUCKET4J_FACTOR));
        }
        PgReport.row(
            md,
            "per-JVM spread ≤ 1.2, " + r.shape(),
            r.variant().label(),
            PgReport.spread(r.spread()),
            r.spread() <= MAX_SPREAD ? "met" : "missed");
        rows++;
      }
    }
    return rows == 0 ? "" : md.toString();
  }

  private static String verdict(boolean met, double ofAim) {
    return met ? "met" : String.format(Locale.ROOT, "missed (%.0f %% of the aim)", ofAim * 100);
  }
}
