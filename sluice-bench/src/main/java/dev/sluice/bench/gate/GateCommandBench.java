/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The job gate's command benchmarks: {@code bin/sluice run} against GNU {@code sem}, {@code flock}
 * and a trivial JVM, all as real processes on an idle gate in a fresh temporary directory.
 *
 * <ol>
 *   <li>{@link CallTimes}: wall time per sequential call, the four variants interleaved;
 *   <li>{@link WakeRounds}: a queued {@code sluice run}'s command starts this long after the
 *       holder's command ended.
 * </ol>
 *
 * <p>Run it from the shaded jar, {@code java -cp sluice-bench/target/benchmarks.jar
 * dev.sluice.bench.gate.GateCommandBench [options]} (see {@link BenchOptions#USAGE}), or with
 * {@code run-gate-benchmarks.sh}. Progress goes to stderr; the Markdown report to stdout. The run
 * directory is deleted at the end unless {@code --keep} is given.
 */
public final class GateCommandBench {
  private GateCommandBench() {}

  /**
   * Runs both measurements and prints the report.
   *
   * @param args options, see {@link BenchOptions#USAGE}
   * @throws Exception if a measurement fails
   */
  public static void main(String[] args) throws Exception {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(64);
      return;
    }
    Path runDir = Files.createTempDirectory(options.baseDir(), "sg");
    long began = System.nanoTime();
    try {
      Path home = runDir.resolve("h");
      Path trivialDir = copyTrivialMain(runDir.resolve("trivial"));
      String environment = environment(options, runDir);
      progress("run directory " + runDir + "; " + environment);
      Path log = runDir.resolve("setup.log");
      for (List<String> pool :
          List.of(
              List.of(CallTimes.POOL, "" + CallTimes.CAPACITY), List.of(WakeRounds.POOL, "1"))) {
        Commands.run(
            List.of(
                options.sluice().toString(),
                "--home",
                home.toString(),
                "pool",
                "set",
                pool.get(0),
                "--capacity",
                pool.get(1)),
            log);
      }
      progress(
          "per-call wall time: "
              + options.warmup()
              + " + "
              + options.calls()
              + " calls of each variant");
      CallTimes.Outcome calls = CallTimes.run(options, runDir, home, trivialDir);
      calls.rows().forEach(r -> progress("  " + r.variant().label() + ": " + r.time()));
      progress("wake latency: " + options.wakeWarmup() + " + " + options.wakeRounds() + " rounds");
      WakeRounds.Outcome wake = WakeRounds.run(options, runDir, home);
      progress("  " + wake);
      System.out.print(GateReport.render(options, environment, calls, wake));
      System.out.flush();
    } finally {
      progress(String.format(Locale.ROOT, "took %.0f s", (System.nanoTime() - began) / 1e9));
      if (options.keep()) {
        progress("kept " + runDir);
      } else {
        deleteTree(runDir);
      }
    }
  }

  /** Copies {@link TrivialMain}'s class file to {@code dir}, its class path of its own. */
  private static Path copyTrivialMain(Path dir) throws IOException {
    String name = TrivialMain.class.getName().replace('.', '/') + ".class";
    Path target = dir.resolve(name);
    Files.createDirectories(target.getParent());
    try (InputStream in = TrivialMain.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("cannot find " + name);
      }
      Files.copy(in, target);
    }
    return dir;
  }

  private static String environment(BenchOptions options, Path runDir) throws IOException {
    return String.format(
        Locale.ROOT,
        "Gate command benchmarks of %s: %s (JDK %s of the harness), %s, %d CPUs, %s %s; homes"
            + " and lock files on one %s file system under a fresh temporary directory.",
        LocalDate.now(),
        options.java(),
        System.getProperty("java.version"),
        semVersion(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        Files.getFileStore(runDir).type());
  }

  /** The first line of {@code sem --version}, for example "GNU parallel 20221122". */
  private static String semVersion() throws IOException {
    Process sem = new ProcessBuilder("sem", "--version").redirectErrorStream(true).start();
    try (InputStream out = sem.getInputStream()) {
      String text = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      return text.lines().findFirst().orElse("sem of unknown version");
    }
  }

  private static void progress(String line) {
    System.err.println("[gate-bench] " + line);
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
