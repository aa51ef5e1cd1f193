/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The PostgreSQL limiter benchmarks, side by side on one server in one run: Sluice's {@code
 * PostgresStore} (strict order and {@code localHandOffs(16)}), Bucket4j's PostgreSQL proxy manager
 * ({@link Bucket4jContender}) and a naive conditional-UPDATE semaphore ({@link PgNaiveSemaphore}),
 * all in real worker JVMs.
 *
 * <ol>
 *   <li>{@link PgThroughputRun}: cycles/s in each shape (default 1×1, 1×8, 1×32, 4×8), with the
 *       spread between JVMs and the server's writing transactions per cycle;
 *   <li>{@link PgWakeLatencyRun}: release in one JVM to the grant in another (Sluice strict,
 *       naive);
 *   <li>{@link PgCrashReclaimRun}: SIGKILL of a holder to a waiter's grant in another JVM (Sluice
 *       at a short and at the default heartbeat timeout; the naive semaphore once).
 * </ol>
 *
 * <p>Everything lives in a fresh schema of the server, dropped at the end unless {@code --keep}.
 * Run it as {@code java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.process.PgBench
 * [options]} (see {@link PgBenchSettings#USAGE}) or with {@code run-postgres-benchmarks.sh}.
 * Progress goes to stderr, the Markdown report to stdout.
 */
public final class PgBench {
  private PgBench() {}

  /**
   * Runs every measurement and prints the report.
   *
   * @param args options, see {@link PgBenchSettings#USAGE}
   * @throws Exception if a measurement fails
   */
  public static void main(String[] args) throws Exception {
    PgBenchSettings settings;
    try {
      settings = PgBenchSettings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(64);
      return;
    }
    String schema =
        "sluice_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    PgTarget base = new PgTarget(settings.url(), schema, "none");
    Path runDir = Files.createTempDirectory("sluice-pg-bench-");
    long began = System.nanoTime();
    base.execute("CREATE SCHEMA " + schema);
    try {
      JvmLauncher launcher = JvmLauncher.create(runDir, settings.jar());
      String environment = environment(base);
      progress("schema " + schema + ", logs in " + runDir + "; " + environment);
      List<PgThroughputRun.Result> throughput = new ArrayList<>();
      for (PgBenchSettings.Shape shape : settings.shapes()) {
        for (PgVariant variant : settings.variants()) {
          progress("throughput: " + variant.label() + ", " + shape);
          PgThroughputRun.Result r = PgThroughputRun.run(launcher, base, variant, shape, settings);
          throughput.add(r);
          progress(
              String.format(
                  Locale.ROOT,
                  "  %,.0f cycles/s, spread %s",
                  r.cyclesPerSecond(),
                  PgReport.spread(r.spread())));
        }
      }
      List<PgWakeLatencyRun.Outcome> wake = new ArrayList<>();
      for (PgVariant variant : List.of(PgVariant.SLUICE, PgVariant.NAIVE)) {
        progress("wake latency: " + variant.label());
        wake.add(PgWakeLatencyRun.run(launcher, base, variant, settings));
        progress("  " + wake.get(wake.size() - 1));
      }
      List<PgCrashReclaimRun.SluiceOutcome> crash = new ArrayList<>();
      progress("crash reclaim, heartbeat " + settings.crashHeartbeat());
      crash.add(
          PgCrashReclaimRun.sluice(
              launcher, base, settings.crashHeartbeat(), settings.crashRounds()));
      progress("  " + crash.get(0));
      if (settings.defaultCrashRounds() > 0) {
        progress("crash reclaim, default heartbeat " + PgBenchSettings.DEFAULT_HEARTBEAT);
        crash.add(
            PgCrashReclaimRun.sluice(
                launcher, base, PgBenchSettings.DEFAULT_HEARTBEAT, settings.defaultCrashRounds()));
        progress("  " + crash.get(1));
      }
      progress("crash reclaim, naive semaphore");
      PgCrashReclaimRun.NaiveOutcome naive =
          PgCrashReclaimRun.naive(launcher, base, settings.naiveCrashWait());
      System.out.print(PgReport.render(settings, environment, throughput, wake, crash, naive));
      System.out.flush();
    } finally {
      progress(String.format(Locale.ROOT, "took %.0f s", (System.nanoTime() - began) / 1e9));
      if (settings.keep()) {
        progress("kept schema " + schema + " and " + runDir);
      } else {
        base.execute("DROP SCHEMA " + schema + " CASCADE");
        deleteTree(runDir);
      }
    }
  }

  static String environment(PgTarget base) throws Exception {
    String server;
    try (Connection c = base.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT current_setting('server_version'), current_setting('synchronous_commit'),"
                    + " current_setting('fsync'), current_setting('max_connections')")) {
      rs.next();
      server =
          String.format(
              Locale.ROOT,
              "PostgreSQL %s (synchronous_commit=%s, fsync=%s, max_connections=%s)",
              rs.getString(1),
              rs.getString(2),
              rs.getString(3),
              rs.getString(4));
    }
    return String.format(
        Locale.ROOT,
        "PostgreSQL benchmarks of %s: JDK %s (%s), %d CPUs, %s %s; %s on the same machine,"
            + " reached over loopback TCP.",
        LocalDate.now(),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        server);
  }

  private static void progress(String line) {
    System.err.println("[pg-bench] " + line);
  }

  static void deleteTree(Path root) throws Exception {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
