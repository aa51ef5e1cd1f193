/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run of {@link ProcessBench} measures, from its command line. Every option has a default;
 * see {@link #USAGE}.
 *
 * @param jar the shaded jar the workers run from
 * @param baseDir the directory under which the run's fresh temporary directory is made
 * @param warmup throughput warm-up per configuration
 * @param window throughput measured window per configuration
 * @param processCounts worker processes per throughput configuration
 * @param threads threads per worker process
 * @param wakeWarmup wake-latency rounds run first and not recorded
 * @param wakeRounds wake-latency rounds recorded
 * @param crashWarmup crash-reclaim rounds run first and not recorded
 * @param crashRounds crash-reclaim rounds recorded
 * @param naiveCrashWait how long the naive semaphore's waiter tries after its holder was killed
 * @param keep whether to keep the run directory (pools, databases, worker logs)
 */
record Settings(
    Path jar,
    Path baseDir,
    Duration warmup,
    Duration window,
    List<Integer> processCounts,
    int threads,
    int wakeWarmup,
    int wakeRounds,
    int crashWarmup,
    int crashRounds,
    Duration naiveCrashWait,
    boolean keep) {

  /** The cap of every measurement. */
  static final int CAP = 4;

  static final String USAGE =
      """
      usage: java -cp benchmarks.jar dev.sluice.bench.process.ProcessBench [options]
        --jar PATH            shaded jar for the workers (default: the jar this class came from)
        --dir PATH            parent of the fresh run directory (default: java.io.tmpdir)
        --warmup SECONDS      throughput warm-up per configuration (default 30)
        --window SECONDS      throughput measured window per configuration (default 10)
        --processes LIST      worker processes per configuration, comma-separated (default 1,2,4)
        --threads N           threads per worker process (default 8)
        --wake-warmup N       unrecorded wake-latency rounds (default 3000)
        --wake-rounds N       recorded wake-latency rounds (default 200)
        --crash-warmup N      unrecorded crash-reclaim rounds (default 2)
        --crash-rounds N      recorded crash-reclaim rounds (default 20)
        --naive-crash-wait S  how long the naive waiter tries after the kill (default 3)
        --keep                keep the run directory and worker logs
      """;

  /**
   * Parses the command line.
   *
   * @param args the arguments
   * @return the settings
   * @throws IllegalArgumentException on an unknown option or a bad value, with {@link #USAGE}
   */
  static Settings parse(String[] args) {
    Path jar = null;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    double warmup = 30;
    double window = 10;
    List<Integer> processes = List.of(1, 2, 4);
    int threads = 8;
    int wakeWarmup = 3000;
    int wakeRounds = 200;
    int crashWarmup = 2;
    int crashRounds = 20;
    double naiveWait = 3;
    boolean keep = false;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (option.equals("--keep")) {
        keep = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + option + "\n" + USAGE);
      }
      String value = args[++i];
      switch (option) {
        case "--jar" -> jar = Path.of(value);
        case "--dir" -> dir = Path.of(value);
        case "--warmup" -> warmup = Double.parseDouble(value);
        case "--window" -> window = Double.parseDouble(value);
        case "--processes" -> processes = parseList(value);
        case "--threads" -> threads = Integer.parseInt(value);
        case "--wake-warmup" -> wakeWarmup = Integer.parseInt(value);
        case "--wake-rounds" -> wakeRounds = Integer.parseInt(value);
        case "--crash-warmup" -> crashWarmup = Integer.parseInt(value);
        case "--crash-rounds" -> crashRounds = Integer.parseInt(value);
        case "--naive-crash-wait" -> naiveWait = Double.parseDouble(value);
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    if (window <= 0 || warmup < 0 || threads < 1 || wakeRounds < 1 || crashRounds < 1) {
      throw new IllegalArgumentException(
          "window, threads and rounds must be positive, warm-up not negative\n" + USAGE);
    }
    return new Settings(
        jar == null ? ownJar() : jar.toAbsolutePath(),
        dir.toAbsolutePath(),
        seconds(warmup),
        seconds(window),
        processes,
        threads,
        wakeWarmup,
        wakeRounds,
        crashWarmup,
        crashRounds,
        seconds(naiveWait),
        keep);
  }

  private static List<Integer> parseList(String value) {
    List<Integer> counts = new ArrayList<>();
    for (String part : value.split(",")) {
      int n = Integer.parseInt(part.trim());
      if (n < 1) {
        throw new IllegalArgumentException("--processes: counts must be positive, was " + value);
      }
      counts.add(n);
    }
    return List.copyOf(counts);
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }

  /** The jar this class was loaded from; refuses if it was not loaded from a jar. */
  static Path ownJar() {
    try {
      Path own =
          Path.of(ProcessBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(own)) {
        return own;
      }
    } catch (URISyntaxException | RuntimeException e) {
      // Fall through to the error below.
    }
    throw new IllegalArgumentException(
        "not started from a jar; pass --jar sluice-bench/target/benchmarks.jar\n" + USAGE);
  }
}
