/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Measurement 1: admission+release cycles per second with a cap of {@link Settings#CAP}, for one
 * variant and one number of worker processes, each running {@link Settings#threads()} threads of
 * {@link ThroughputWorker} on a fresh cap.
 *
 * <p>All workers start, open the cap and report ready; then all are told to go at once. After the
 * warm-up the harness asks every worker for its count (mark 1), sleeps the window, and asks again
 * (mark 2). A worker's cycles are the difference of its two counts; the window is the harness's
 * time between the two rounds of marks, which every worker sees with the same offset.
 */
final class ThroughputRun {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration REPLY = Duration.ofSeconds(30);

  private ThroughputRun() {}

  /**
   * One configuration's outcome.
   *
   * @param variant the cap
   * @param processes worker processes
   * @param threads threads per process
   * @param windowSeconds the measured window
   * @param perProcess cycles of each process in the window
   * @param emptyUpdates polling attempts that found the cap full, all processes, in the window
   * @param busyErrors busy errors after the busy timeout, all processes, in the window
   */
  record Result(
      Variant variant,
      int processes,
      int threads,
      double windowSeconds,
      long[] perProcess,
      long emptyUpdates,
      long busyErrors) {

    /** Cycles of all processes in the window. */
    long total() {
      return Arrays.stream(perProcess).sum();
    }

    /** Cycles per second, all processes. */
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
   * Runs one configuration.
   *
   * @param launcher starts the workers
   * @param runDir the run's directory; a fresh cap is made in it
   * @param variant the cap under test
   * @param processes how many worker processes
   * @param settings warm-up, window and threads
   * @return the outcome
   * @throws Exception if a worker fails
   */
  static Result run(
      JvmLauncher launcher, Path runDir, Variant variant, int processes, Settings settings)
      throws Exception {
    String name = "throughput-" + variant.name().toLowerCase() + "-" + processes + "p";
    Path location = variant.prepare(runDir, name);
    List<Child> workers = new ArrayList<>();
    try {
      for (int i = 0; i < processes; i++) {
        workers.add(
            launcher.start(
                name + "-" + i,
                ThroughputWorker.class,
                variant.name(),
                location,
                settings.threads(),
                Settings.CAP));
      }
      Window w = measure(workers, settings.warmup(), settings.window());
      long[] perProcess = new long[processes];
      long empty = 0;
      long busy = 0;
      for (int i = 0; i < processes; i++) {
        perProcess[i] = w.counts()[i][0];
        empty += w.counts()[i][1];
        busy += w.counts()[i][2];
      }
      return new Result(
          variant, processes, settings.threads(), w.seconds(), perProcess, empty, busy);
    } finally {
      for (Child w : workers) {
        w.close();
      }
    }
  }

  /**
   * What the workers counted in the window.
   *
   * @param seconds the window's length
   * @param counts per worker, how much each number of its {@code count} reply grew in the window
   * @param probed how much the probe's counter grew in the window (0 without a probe)
   */
  record Window(double seconds, long[][] counts, long probed) {}

  /**
   * Drives started {@link ThroughputWorker} JVMs through one measurement: waits for every {@code
   * ready}, sends {@code go}, waits out the warm-up, marks, waits out the window, marks again, and
   * stops them.
   *
   * @param workers the started workers
   * @param warmup time before the first mark
   * @param window time between the marks
   * @return the window and the growth of each worker's counts
   * @throws Exception if a worker fails
   */
  static Window measure(List<Child> workers, Duration warmup, Duration window) throws Exception {
    return measure(workers, warmup, window, () -> 0);
  }

  /**
   * Like {@link #measure(List, Duration, Duration)}, also reading {@code probe} right after each
   * mark.
   *
   * @param workers the started workers
   * @param warmup time before the first mark
   * @param window time between the marks
   * @param probe a counter outside the workers (the server's transaction ids, say)
   * @return the window, the growth of each worker's counts and of the probe
   * @throws Exception if a worker fails or the probe cannot be read
   */
  static Window measure(List<Child> workers, Duration warmup, Duration window, Probe probe)
      throws Exception {
    for (Child w : workers) {
      w.expect("ready", START);
    }
    for (Child w : workers) {
      w.send("go");
    }
    Thread.sleep(warmup.toMillis());
    long start = System.nanoTime();
    long[][] first = mark(workers);
    long probed = probe.read();
    Thread.sleep(window.toMillis());
    long end = System.nanoTime();
    long[][] second = mark(workers);
    probed = probe.read() - probed;
    for (Child w : workers) {
      w.send("stop");
    }
    for (Child w : workers) {
      w.expect("stopped", REPLY);
      w.awaitExit(REPLY);
    }
    long[][] grown = new long[workers.size()][];
    for (int i = 0; i < workers.size(); i++) {
      grown[i] = new long[first[i].length];
      for (int j = 0; j < first[i].length; j++) {
        grown[i][j] = second[i][j] - first[i][j];
      }
    }
    return new Window((end - start) / 1e9, grown, probed);
  }

  /** A counter read at the marks. */
  @FunctionalInterface
  interface Probe {
    /** Reads the counter. */
    long read() throws Exception;
  }

  /** Sends {@code mark} to every worker first, then reads every reply. */
  private static long[][] mark(List<Child> workers) throws Exception {
    for (Child w : workers) {
      w.send("mark");
    }
    long[][] counts = new long[workers.size()][];
    for (int i = 0; i < workers.size(); i++) {
      counts[i] = workers.get(i).expectNumbers("count", REPLY);
    }
    return counts;
  }
}
