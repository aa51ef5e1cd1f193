/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.workflow.Execution;
import dev.sluice.workflow.WorkflowRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The workflow benchmarks on the SQLite workflow store, with real worker JVMs: end-to-end
 * throughput of three-step workflows with 1 and 2 worker processes, and start-to-finish latency of
 * a one-step workflow, each with {@code synchronous=NORMAL} and {@code FULL}, beside the disk's
 * fsync rate. Prints a Markdown table on stdout; progress on stderr.
 *
 * <p>Options: {@code --jar JAR} (the shaded benchmark jar, required), {@code --dir DIR} (parent of
 * the run directory), {@code --count N} (executions per throughput row, default 3000), {@code
 * --warmup N} (executions each worker runs on a private store first, default 3000), {@code
 * --latency-rounds N} (default 500) after {@code --latency-warmup N} (default 500).
 */
public final class WorkflowBench {
  private static final Duration LONG = Duration.ofMinutes(5);

  private final JvmLauncher launcher;
  private final Path runDir;
  private final int count;
  private final int warmup;
  private final int latencyRounds;
  private final int latencyWarmup;
  private final List<String> rows = new ArrayList<>();

  private WorkflowBench(
      JvmLauncher launcher,
      Path runDir,
      int count,
      int warmup,
      int latencyRounds,
      int latencyWarmup) {
    this.launcher = launcher;
    this.runDir = runDir;
    this.count = count;
    this.warmup = warmup;
    this.latencyRounds = latencyRounds;
    this.latencyWarmup = latencyWarmup;
  }

  public static void main(String[] args) throws Exception {
    Path jar = null;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    int count = 3000;
    int warmup = 3000;
    int rounds = 500;
    int roundsWarmup = 500;
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--jar" -> jar = Path.of(value);
        case "--dir" -> dir = Path.of(value);
        case "--count" -> count = Integer.parseInt(value);
        case "--warmup" -> warmup = Integer.parseInt(value);
        case "--latency-rounds" -> rounds = Integer.parseInt(value);
        case "--latency-warmup" -> roundsWarmup = Integer.parseInt(value);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (jar == null) {
      throw new IllegalArgumentException("--jar is required");
    }
    Path runDir = Files.createTempDirectory(dir, "sluice-wb-");
    WorkflowBench bench =
        new WorkflowBench(
            JvmLauncher.create(runDir, jar), runDir, count, warmup, rounds, roundsWarmup);
    long started = System.nanoTime();
    String table = bench.run();
    progress("took " + (System.nanoTime() - started) / 1_000_000_000 + " s");
    System.out.println(table);
  }

  private String run() throws Exception {
    double fsyncs = FsyncRate.measure(runDir, 3.0);
    progress(String.format("fsync rate: %,.0f/s", fsyncs));
    for (boolean full : new boolean[] {false, true}) {
      for (int processes = 1; processes <= 2; processes++) {
        throughput(full, processes);
      }
      latency(full);
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            "Workflow benchmarks of %s: JDK %s, %d CPUs, %s %s; every store on one file system"
                + " under a fresh temporary directory; this disk's fsync rate (4 KiB overwrite +"
                + " fsync, one thread): %,.0f/s.%n%n",
            LocalDate.now(),
            System.getProperty("java.version"),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("os.name"),
            System.getProperty("os.arch"),
            fsyncs));
    out.append(
        String.format(
            "Throughput: %,d three-step executions queued, then the warmed workers (4 threads"
                + " each, %,d executions run first on a private store) are let go; from go to the"
                + " last result. Latency: one worker; submit → result of a one-step workflow, one"
                + " at a time, %d rounds after %d unrecorded.%n%n",
            count, warmup, latencyRounds, latencyWarmup));
    out.append("| measurement | synchronous | worker processes | result | notes |\n");
    out.append("|---|---|---|---|---|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    return out.toString();
  }

  private void throughput(boolean full, int processes) throws Exception {
    String sync = full ? "FULL" : "NORMAL";
    progress("throughput, " + sync + ", " + processes + " worker process(es)");
    Path store = runDir.resolve("tp-" + sync + "-" + processes);
    List<Child> workers = startWorkers(store, full, processes);
    try (WorkflowRuntime harness = BenchWorkflows.runtime(store, full)) {
      List<Execution<String>> runs = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        runs.add(harness.submit(BenchWorkflows.THREE, "t-" + i, "t"));
      }
      long go = System.nanoTime();
      for (Child w : workers) {
        w.send("go");
      }
      for (Execution<String> e : runs) {
        e.result(LONG);
      }
      double seconds = (System.nanoTime() - go) / 1e9;
      double rate = count / seconds;
      progress(String.format("  %,.0f workflows/s", rate));
      rows.add(
          String.format(
              "| throughput, 3-step workflows | %s | %d | %,.0f workflows/s | %,d in %.2f s |",
              sync, processes, rate, count, seconds));
    } finally {
      stopWorkers(workers);
    }
  }

  private void latency(boolean full) throws Exception {
    String sync = full ? "FULL" : "NORMAL";
    progress("latency, " + sync);
    Path store = runDir.resolve("lat-" + sync);
    List<Child> workers = startWorkers(store, full, 1);
    try (WorkflowRuntime harness = BenchWorkflows.runtime(store, full)) {
      workers.get(0).send("go");
      List<Long> micros = new ArrayList<>();
      for (int i = 0; i < latencyWarmup + latencyRounds; i++) {
        long start = System.nanoTime();
        harness.submit(BenchWorkflows.ONE, "l-" + i, "x").result(LONG);
        if (i >= latencyWarmup) {
          micros.add((System.nanoTime() - start) / 1000);
        }
      }
      Percentiles p = Percentiles.ofMicros(micros);
      progress("  " + p);
      rows.add(
          String.format(
              "| start-to-finish latency, 1-step workflow | %s | 1 | p50 %.2f ms, p99 %.2f ms |"
                  + " max %.2f ms, %d rounds |",
              sync, p.p50Millis(), p.p99Millis(), p.maxMillis(), p.samples()));
    } finally {
      stopWorkers(workers);
    }
  }

  private List<Child> startWorkers(Path store, boolean full, int processes) throws Exception {
    List<Child> workers = new ArrayList<>();
    String sync = full ? "full" : "normal";
    for (int i = 0; i < processes; i++) {
      String name = store.getFileName() + "-w" + i;
      workers.add(
          launcher.start(
              name,
              WorkflowBenchWorker.class,
              store,
              sync,
              runDir.resolve("warm-" + name),
              warmup));
    }
    for (Child w : workers) {
      w.expect("ready", LONG);
    }
    return workers;
  }

  private static void stopWorkers(List<Child> workers) throws InterruptedException, IOException {
    for (Child w : workers) {
      w.send("stop");
    }
    for (Child w : workers) {
      w.expect("stopped", LONG);
      w.close();
    }
  }

  private static void progress(String line) {
    System.err.println("[workflow-bench] " + line);
  }
}
