/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What one {@link PgWorkflowBench} run does. Immutable.
 *
 * @param jar the shaded benchmark jar the worker JVMs run
 * @param url the server's JDBC URL
 * @param peers the engines, in the order they run
 * @param count three-step executions per throughput row
 * @param warmup three-step executions each worker runs on a private schema first
 * @param latencyRounds recorded one-step rounds per latency row
 * @param latencyWarmup unrecorded rounds before them
 * @param workers executions one worker JVM runs at once (both engines)
 * @param pool connections in each JVM's pool (both engines)
 * @param dbosPoll DBOS's queue polling interval
 * @param rounds how many times every row runs; the engines take turns going first, and the report
 *     adds each row's median and the median of the rounds' ratios
 */
record PgWorkflowSettings(
    Path jar,
    String url,
    List<PgWorkflowPeer> peers,
    int count,
    int warmup,
    int latencyRounds,
    int latencyWarmup,
    int workers,
    int pool,
    Duration dbosPoll,
    int rounds) {

  /** The options and their defaults. */
  static final String USAGE =
      "PgWorkflowBench --jar JAR [--count 3000] [--warmup 2000] [--latency-rounds 500]"
          + " [--latency-warmup 300] [--workers 8] [--pool 8] [--dbos-poll-ms 5]"
          + " [--peers SLUICE,DBOS] [--rounds 1]";

  /**
   * Parses the command line; the URL comes from {@code SLUICE_POSTGRES_URL}.
   *
   * @param args the options
   * @return the settings
   * @throws IllegalArgumentException naming the option and the value on bad input
   */
  static PgWorkflowSettings parse(String[] args) {
    Path jar = null;
    int count = 3000;
    int warmup = 2000;
    int rounds = 500;
    int roundsWarmup = 300;
    int workers = 8;
    int pool = 8;
    long pollMillis = 5;
    int repeats = 1;
    List<PgWorkflowPeer> peers = List.of(PgWorkflowPeer.values());
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("options come in pairs; usage: " + USAGE);
    }
    for (int i = 0; i < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--jar" -> jar = Path.of(value);
        case "--count" -> count = positive(args[i], value);
        case "--warmup" -> warmup = positive(args[i], value);
        case "--latency-rounds" -> rounds = positive(args[i], value);
        case "--latency-warmup" -> roundsWarmup = positive(args[i], value);
        case "--workers" -> workers = positive(args[i], value);
        case "--pool" -> pool = positive(args[i], value);
        case "--dbos-poll-ms" -> pollMillis = positive(args[i], value);
        case "--rounds" -> repeats = positive(args[i], value);
        case "--peers" ->
            peers = Arrays.stream(value.split(",")).map(PgWorkflowPeer::valueOf).toList();
        default ->
            throw new IllegalArgumentException("unknown option " + args[i] + "; usage: " + USAGE);
      }
    }
    if (jar == null) {
      throw new IllegalArgumentException("--jar is required; usage: " + USAGE);
    }
    return new PgWorkflowSettings(
        jar,
        PgTarget.urlFromEnvironment(),
        peers,
        count,
        warmup,
        rounds,
        roundsWarmup,
        workers,
        pool,
        Duration.ofMillis(pollMillis),
        repeats);
  }

  private static int positive(String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " must be a positive integer, was " + value);
  }
}
