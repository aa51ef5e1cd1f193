/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The multi-process benchmark harness: Sluice's SQLite store against a naive SQLite semaphore
 * ({@link NaiveSemaphore}), with real worker JVMs on one disk, in a fresh temporary directory.
 *
 * <ol>
 *   <li>{@link ThroughputRun}: admission+release cycles per second, cap 4, 8 threads per process,
 *       1, 2 and 4 processes, every variant (strict order, two hand-off quotas, the naive
 *       semaphore), with the spread between processes;
 *   <li>{@link WakeLatencyRun}: release in one process to admission of a waiter in another
 *       (Sluice);
 *   <li>{@link CrashReclaimRun}: SIGKILL of a holder to admission of a waiter (Sluice), and what
 *       the naive semaphore does instead.
 * </ol>
 *
 * <p>Run it from the shaded jar, {@code java -cp sluice-bench/target/benchmarks.jar
 * dev.sluice.bench.process.ProcessBench [options]} (see {@link Settings#USAGE}), or with {@code
 * run-process-benchmarks.sh}. Progress goes to stderr; the Markdown report goes to stdout. The run
 * directory is deleted at the end unless {@code --keep} is given.
 */
public final class ProcessBench {
  private ProcessBench() {}

  /**
   * Runs every measurement and prints the report.
   *
   * @param args options, see {@link Settings#USAGE}
   * @throws Exception if a measurement fails
   */
  public static void main(String[] args) throws Exception {
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(64);
      return;
    }
    Path runDir = Files.createTempDirectory(settings.baseDir(), "sluice-pb-");
    long began = System.nanoTime();
    try {
      JvmLauncher launcher = JvmLauncher.create(runDir, settings.jar());
      String environment = environment(runDir);
      progress("run directory " + runDir + "; " + environment);
      List<ThroughputRun.Result> throughput = new ArrayList<>();
      for (int processes : settings.processCounts()) {
        for (Variant variant : Variant.values()) {
          progress("throughput: " + variant.label() + ", " + processes + " process(es)");
          ThroughputRun.Result r =
              ThroughputRun.run(launcher, runDir, variant, processes, settings);
          throughput.add(r);
          progress(String.format(Locale.ROOT, "  %,.0f cycles/s", r.cyclesPerSecond()));
        }
      }
      progress("wake latency: " + settings.wakeRounds() + " rounds");
      WakeLatencyRun.Outcome wake = WakeLatencyRun.run(launcher, runDir, settings);
      progress("  " + wake);
      progress("crash reclaim: " + settings.crashRounds() + " rounds");
      CrashReclaimRun.SluiceOutcome crash = CrashReclaimRun.sluice(launcher, runDir, settings);
      progress("  " + crash);
      progress("crash reclaim, naive semaphore");
      CrashReclaimRun.NaiveOutcome naive = CrashReclaimRun.naive(launcher, runDir, settings);
      progress("  " + naive);
      System.out.print(Report.render(settings, environment, throughput, wake, crash, naive));
      System.out.flush();
    } finally {
      progress(String.format(Locale.ROOT, "took %.0f s", (System.nanoTime() - began) / 1e9));
      if (settings.keep()) {
        progress("kept " + runDir);
      } else {
        deleteTree(runDir);
      }
    }
  }

  private static String environment(Path runDir) throws IOException {
    return String.format(
        Locale.ROOT,
        "Process benchmarks of %s: JDK %s (%s), %d CPUs, %s %s; every pool and database on one %s"
            + " file system under a fresh temporary directory.",
        LocalDate.now(),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        Files.getFileStore(runDir).type());
  }

  private static void progress(String line) {
    System.err.println("[process-bench] " + line);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
