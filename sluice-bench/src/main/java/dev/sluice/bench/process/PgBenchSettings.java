/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run of {@link PgBench} measures, from its command line; see {@link #USAGE}.
 *
 * @param jar the shaded jar the workers run from
 * @param url the server's JDBC URL (loopback only)
 * @param warmup throughput warm-up per row
 * @param window throughput window per row
 * @param shapes processes × threads of the throughput rows
 * @param variants the caps compared
 * @param wakeWarmup unrecorded wake-latency rounds
 * @param wakeRounds recorded wake-latency rounds
 * @param crashRounds recorded crash-reclaim rounds at {@code crashHeartbeat}
 * @param crashHeartbeat the owners' heartbeat timeout in those rounds
 * @param defaultCrashRounds crash-reclaim rounds at the default heartbeat timeout
 * @param naiveCrashWait how long the naive waiter tries after its holder was killed
 * @param keep whether to keep the run's schema
 */
record PgBenchSettings(
    Path jar,
    String url,
    Duration warmup,
    Duration window,
    List<Shape> shapes,
    List<PgVariant> variants,
    int wakeWarmup,
    int wakeRounds,
    int crashRounds,
    Duration crashHeartbeat,
    int defaultCrashRounds,
    Duration naiveCrashWait,
    boolean keep) {

  /** The cap of every measurement. */
  static final int CAP = 4;

  /** The store's default owner heartbeat timeout, used by every throughput row. */
  static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(30);

  /**
   * Worker processes and threads per process of a throughput row.
   *
   * @param processes worker JVMs
   * @param threads threads per JVM
   */
  record Shape(int processes, int threads) {
    @Override
    public String toString() {
      return processes + " × " + threads;
    }
  }

  static final String USAGE =
      """
      usage: java -cp benchmarks.jar dev.sluice.bench.process.PgBench [options]
        --jar PATH              shaded jar for the workers (default: the jar this class came from)
        --url URL               server (default: SLUICE_POSTGRES_URL, else the local test database)
        --warmup SECONDS        throughput warm-up per row (default 15)
        --window SECONDS        throughput window per row (default 10)
        --shapes LIST           processes x threads, comma-separated (default 1x1,1x8,1x32,4x8)
        --variants LIST         of SLUICE,SLUICE_HAND_OFFS,BUCKET4J,NAIVE (default all)
        --wake-warmup N         unrecorded wake-latency rounds (default 1000)
        --wake-rounds N         recorded wake-latency rounds (default 200)
        --crash-rounds N        crash-reclaim rounds at --crash-heartbeat (default 10)
        --crash-heartbeat S     owner heartbeat timeout in those rounds (default 3)
        --default-crash-rounds N  crash-reclaim rounds at the default 30 s heartbeat (default 2)
        --naive-crash-wait S    how long the naive waiter tries after the kill (default 3)
        --keep                  keep the run's schema
      """;

  /**
   * Parses the command line.
   *
   * @param args the arguments
   * @return the settings
   * @throws IllegalArgumentException on an unknown option or a bad value, with {@link #USAGE}
   */
  static PgBenchSettings parse(String[] args) {
    Path jar = null;
    String url = PgTarget.urlFromEnvironment();
    double warmup = 15;
    double window = 10;
    List<Shape> shapes = parseShapes("1x1,1x8,1x32,4x8");
    List<PgVariant> variants = List.of(PgVariant.values());
    int[] counts = {1000, 200, 10, 2};
    double crashHeartbeat = 3;
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
        case "--jar" -> jar = Path.of(value).toAbsolutePath();
        case "--url" -> url = value;
        case "--warmup" -> warmup = Double.parseDouble(value);
        case "--window" -> window = Double.parseDouble(value);
        case "--shapes" -> shapes = parseShapes(value);
        case "--variants" -> variants = parseVariants(value);
        case "--wake-warmup" -> counts[0] = Integer.parseInt(value);
        case "--wake-rounds" -> counts[1] = Integer.parseInt(value);
        case "--crash-rounds" -> counts[2] = Integer.parseInt(value);
        case "--default-crash-rounds" -> counts[3] = Integer.parseInt(value);
        case "--crash-heartbeat" -> crashHeartbeat = Double.parseDouble(value);
        case "--naive-crash-wait" -> naiveWait = Double.parseDouble(value);
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    if (window <= 0 || warmup < 0 || counts[1] < 1 || counts[2] < 1 || counts[3] < 0) {
      throw new IllegalArgumentException(
          "window and rounds must be positive, warm-up not negative\n" + USAGE);
    }
    if (crashHeartbeat < 1 || crashHeartbeat > 3600) {
      throw new IllegalArgumentException(
          "--crash-heartbeat must be between 1 and 3600 seconds, was " + crashHeartbeat);
    }
    return new PgBenchSettings(
        jar == null ? Settings.ownJar() : jar,
        url,
        seconds(warmup),
        seconds(window),
        shapes,
        variants,
        counts[0],
        counts[1],
        counts[2],
        seconds(crashHeartbeat),
        counts[3],
        seconds(naiveWait),
        keep);
  }

  private static List<Shape> parseShapes(String value) {
    List<Shape> shapes = new ArrayList<>();
    for (String part : value.split(",")) {
      String[] pt = part.trim().split("x");
      if (pt.length != 2) {
        throw new IllegalArgumentException("--shapes: expected PROCESSESxTHREADS, was " + part);
      }
      Shape s = new Shape(Integer.parseInt(pt[0]), Integer.parseInt(pt[1]));
      if (s.processes() < 1 || s.threads() < 1) {
        throw new IllegalArgumentException("--shapes: counts must be positive, was " + part);
      }
      shapes.add(s);
    }
    return List.copyOf(shapes);
  }

  private static List<PgVariant> parseVariants(String value) {
    List<PgVariant> out = new ArrayList<>();
    for (String part : value.split(",")) {
      try {
        out.add(PgVariant.valueOf(part.trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--variants: unknown variant " + part + "\n" + USAGE);
      }
    }
    return List.copyOf(out);
  }

  private static Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }
}
