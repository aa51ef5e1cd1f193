/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cycles per second (acquire(1), tiny task, release; cap {@link PgBenchSettings#CAP}) of one {@link
 * PgVariant} in one shape, on a fresh cap: {@link PgThroughputWorker} JVMs driven by {@link
 * ThroughputRun#measure}. The server's transaction-id counter is read at both marks, so each row
 * also says how many writing transactions (of any client of the server) a cycle cost.
 */
final class PgThroughputRun {
  private PgThroughputRun() {}

  /**
   * One row's outcome.
   *
   * @param variant the cap
   * @param shape processes × threads
   * @param windowSeconds the measured window
   * @param perProcess cycles of each process in the window
   * @param empty attempts that found the cap full (naive) or the bucket empty (Bucket4j)
   * @param transactions writing transactions the server started in the window
   */
  record Result(
      PgVariant variant,
      PgBenchSettings.Shape shape,
      double windowSeconds,
      long[] perProcess,
      long empty,
      long transactions) {

    long total() {
      return Arrays.stream(perProcess).sum();
    }

    double cyclesPerSecond() {
      return total() / windowSeconds;
    }

    /** The largest per-process count over the smallest; infinite if one process did none. */
    double spread() {
      long max = Arrays.stream(perProcess).max().orElse(0);
      long min = Arrays.stream(perProcess).min().orElse(0);
      return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
    }
  }

  /**
   * Runs one row.
   *
   * @param launcher starts the workers
   * @param base the run's schema; the cap gets a fresh name in it
   * @param variant the cap under test
   * @param shape processes × threads
   * @param settings warm-up and window
   * @return the outcome
   * @throws Exception if a worker fails
   */
  static Result run(
      JvmLauncher launcher,
      PgTarget base,
      PgVariant variant,
      PgBenchSettings.Shape shape,
      PgBenchSettings settings)
      throws Exception {
    String name =
        "tp_" + variant.name().toLowerCase() + "_" + shape.processes() + "x" + shape.threads();
    PgTarget target = base.named(name);
    variant.prepare(target);
    List<Child> workers = new ArrayList<>();
    try (Connection probe = target.connect()) {
      for (int i = 0; i < shape.processes(); i++) {
        workers.add(
            launcher.start(
                name + "-" + i,
                PgThroughputWorker.class,
                variant.name(),
                target.url(),
                target.schema(),
                target.name(),
                shape.threads(),
                PgBenchSettings.CAP));
      }
      ThroughputRun.Window w =
          ThroughputRun.measure(
              workers, settings.warmup(), settings.window(), () -> nextTransactionId(probe));
      long[] perProcess = new long[shape.processes()];
      long empty = 0;
      for (int i = 0; i < perProcess.length; i++) {
        perProcess[i] = w.counts()[i][0];
        empty += w.counts()[i][1];
      }
      return new Result(variant, shape, w.seconds(), perProcess, empty, w.probed());
    } finally {
      for (Child w : workers) {
        w.close();
      }
    }
  }

  /** The server's next transaction id; reading it assigns none. */
  private static long nextTransactionId(Connection c) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")) {
      rs.next();
      return Long.parseLong(rs.getString(1));
    }
  }
}
