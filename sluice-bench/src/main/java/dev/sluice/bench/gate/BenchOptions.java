/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run of {@link GateCommandBench} measures, from its command line; see {@link #USAGE}.
 *
 * @param sluice the {@code bin/sluice} script
 * @param java the java binary bin/sluice runs (the trivial JVM runs it too)
 * @param jvmOptions bin/sluice's JVM options shared by the trivial JVM: its fixed three, then the
 *     words of {@code SLUICE_JAVA_OPTS} if set
 * @param baseDir the directory under which the run's fresh temporary directory is made
 * @param warmup unrecorded calls of each variant before the recorded ones
 * @param calls recorded calls of each variant
 * @param wakeWarmup unrecorded wake-latency rounds
 * @param wakeRounds recorded wake-latency rounds
 * @param keep whether to keep the run directory (homes, logs, stamps)
 */
record BenchOptions(
    Path sluice,
    Path java,
    List<String> jvmOptions,
    Path baseDir,
    int warmup,
    int calls,
    int wakeWarmup,
    int wakeRounds,
    boolean keep) {

  /** The options bin/sluice always gives its JVM, besides its own class-data archive and SQLite. */
  static final List<String> SLUICE_JVM_OPTIONS =
      List.of(
          "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC", "-Xshare:auto");

  static final String USAGE =
      """
      usage: java -cp benchmarks.jar dev.sluice.bench.gate.GateCommandBench [options]
        --sluice PATH       the bin/sluice script (default: bin/sluice)
        --java PATH         the trivial JVM's java (default: $JAVA_HOME/bin/java, else java on PATH)
        --dir PATH          parent of the fresh run directory (default: java.io.tmpdir); keep it
                            short, Unix socket paths under it must stay below about 107 characters
        --warmup N          unrecorded calls of each variant (default 5)
        --calls N           recorded calls of each variant, interleaved round-robin (default 40)
        --wake-warmup N     unrecorded wake-latency rounds (default 5)
        --wake-rounds N     recorded wake-latency rounds (default 40)
        --keep              keep the run directory
      """;

  /**
   * Parses the command line.
   *
   * @param args the arguments
   * @return the options
   * @throws IllegalArgumentException on an unknown option or a bad value, with {@link #USAGE}
   */
  static BenchOptions parse(String[] args) {
    Path sluice = Path.of("bin", "sluice");
    Path java = null;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    int[] counts = {5, 40, 5, 40};
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
        case "--sluice" -> sluice = Path.of(value);
        case "--java" -> java = Path.of(value);
        case "--dir" -> dir = Path.of(value);
        case "--warmup" -> counts[0] = Integer.parseInt(value);
        case "--calls" -> counts[1] = Integer.parseInt(value);
        case "--wake-warmup" -> counts[2] = Integer.parseInt(value);
        case "--wake-rounds" -> counts[3] = Integer.parseInt(value);
        default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
      }
    }
    if (counts[0] < 0 || counts[1] < 1 || counts[2] < 0 || counts[3] < 1) {
      throw new IllegalArgumentException("calls and rounds must be positive\n" + USAGE);
    }
    if (!Files.isExecutable(sluice)) {
      throw new IllegalArgumentException("not an executable: " + sluice + "\n" + USAGE);
    }
    List<String> jvmOptions = new ArrayList<>(SLUICE_JVM_OPTIONS);
    String extra = System.getenv("SLUICE_JAVA_OPTS");
    if (extra != null && !extra.isBlank()) {
      jvmOptions.addAll(List.of(extra.trim().split("\\s+")));
    }
    return new BenchOptions(
        sluice.toAbsolutePath(),
        java == null ? defaultJava() : java.toAbsolutePath(),
        List.copyOf(jvmOptions),
        dir.toAbsolutePath(),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        keep);
  }

  /**
   * The trivial JVM's java: {@code $JAVA_HOME/bin/java} if executable, else {@code java} on PATH.
   */
  private static Path defaultJava() {
    String home = System.getenv("JAVA_HOME");
    if (home != null && !home.isEmpty() && Files.isExecutable(Path.of(home, "bin", "java"))) {
      return Path.of(home, "bin", "java");
    }
    String path = System.getenv("PATH");
    for (String entry : (path == null ? "" : path).split(File.pathSeparator)) {
      Path candidate = Path.of(entry.isEmpty() ? "." : entry, "java");
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    throw new IllegalArgumentException("no java on PATH and no JAVA_HOME; pass --java\n" + USAGE);
  }
}
