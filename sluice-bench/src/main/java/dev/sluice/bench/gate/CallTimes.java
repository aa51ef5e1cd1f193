/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.gate;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Measurement 1: the wall time of one sequential call of each variant on an idle gate, from just
 * before {@code ProcessBuilder.start} to just after {@code waitFor} returns in the harness. Every
 * variant runs {@code true}; the trivial JVM runs {@link TrivialMain}. After the unrecorded warm-up
 * calls, the recorded calls go round-robin over the variants, each round starting one variant
 * later, so that drift and ordering hit every variant alike.
 *
 * <p>Afterwards the home's event feed tells how much of a recorded Sluice call lay between the
 * grant and the release (millisecond event times).
 */
final class CallTimes {
  /** The pool of the Sluice variant, with the same capacity as sem's {@code -j}. */
  static final String POOL = "bench";

  static final int CAPACITY = 4;

  private CallTimes() {}

  /**
   * One kind of call.
   *
   * @param label the table's name for it
   * @param shown the command as the table shows it
   * @param argv the command
   * @param env variables it needs on top of the harness's environment
   */
  record Variant(String label, String shown, List<String> argv, Map<String, String> env) {}

  /**
   * One variant's recorded calls.
   *
   * @param variant the variant
   * @param time its wall time per call
   */
  record Row(Variant variant, Summary time) {}

  /**
   * The result.
   *
   * @param rows one per variant, Sluice first
   * @param grantedToStarted recorded Sluice calls: grant to the permit's start (the command's
   *     spawn), from event times
   * @param startedToReleased recorded Sluice calls: start to release (the command's run, its exit
   *     noticed, the release), from event times
   */
  record Outcome(List<Row> rows, Summary grantedToStarted, Summary startedToReleased) {}

  /**
   * Runs the calls.
   *
   * @param options counts, the sluice script and java
   * @param runDir the run's directory
   * @param home the gate's home, whose pool {@link #POOL} has capacity {@link #CAPACITY}
   * @param trivialDir the class path of {@link TrivialMain}
   * @return the summaries
   * @throws Exception if a call fails
   */
  static Outcome run(BenchOptions options, Path runDir, Path home, Path trivialDir)
      throws Exception {
    List<Variant> variants = variants(options, runDir, home, trivialDir);
    List<List<Long>> nanos = new ArrayList<>();
    variants.forEach(v -> nanos.add(new ArrayList<>()));
    Path log = runDir.resolve("calls.log");
    int rounds = options.warmup() + options.calls();
    for (int round = 0; round < rounds; round++) {
      for (int k = 0; k < variants.size(); k++) {
        int index = (round + k) % variants.size();
        Variant variant = variants.get(index);
        long began = System.nanoTime();
        Process process = Commands.start(variant.argv(), variant.env(), log);
        Commands.awaitSuccess(process, variant.label(), log);
        long took = System.nanoTime() - began;
        if (round >= options.warmup()) {
          nanos.get(index).add(took);
        }
      }
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < variants.size(); i++) {
      rows.add(new Row(variants.get(i), Summary.ofNanos(nanos.get(i))));
    }
    List<List<Long>> phases = phases(home, options.warmup());
    return new Outcome(
        List.copyOf(rows), Summary.ofNanos(phases.get(0)), Summary.ofNanos(phases.get(1)));
  }

  private static List<Variant> variants(
      BenchOptions options, Path runDir, Path home, Path trivialDir) {
    String semId = "sluice-bench-" + ProcessHandle.current().pid();
    Path lockFile = runDir.resolve("lockfile");
    List<String> trivial = new ArrayList<>();
    trivial.add(options.java().toString());
    trivial.addAll(options.jvmOptions());
    trivial.addAll(List.of("-cp", trivialDir.toString(), TrivialMain.class.getName()));
    return List.of(
        new Variant(
            "sluice run",
            "bin/sluice --home H run --pool " + POOL + " -- true",
            Commands.sluiceRun(options, home, POOL, "true"),
            Map.of()),
        new Variant(
            "GNU sem",
            "sem --fg --will-cite --id ID -j " + CAPACITY + " true",
            List.of("sem", "--fg", "--will-cite", "--id", semId, "-j", "" + CAPACITY, "true"),
            Map.of("PARALLEL_HOME", runDir.resolve("parallel").toString())),
        new Variant(
            "flock",
            "flock DIR/lockfile true",
            List.of("flock", lockFile.toString(), "true"),
            Map.of()),
        new Variant(
            "trivial JVM",
            String.join(" ", BenchOptions.SLUICE_JVM_OPTIONS)
                .transform(o -> "java " + o + " -cp DIR TrivialMain"),
            List.copyOf(trivial),
            Map.of()));
  }

  /** Grant to start and start to release of the recorded Sluice calls, from the event feed. */
  private static List<List<Long>> phases(Path home, int warmup) {
    Map<String, Instant> granted = new HashMap<>();
    Map<String, Instant> started = new HashMap<>();
    List<Long> toStart = new ArrayList<>();
    List<Long> toRelease = new ArrayList<>();
    int seen = 0;
    try (GateService gate = GateService.open(home)) {
      long since = 0;
      for (List<GateEvent> page; !(page = gate.events(since, 1000)).isEmpty(); ) {
        for (GateEvent e : page) {
          since = e.sequence();
          if (!e.pool().equals(POOL)) {
            continue;
          }
          switch (e.type()) {
            case "granted" -> granted.put(e.requestId(), e.at());
            case "started" -> started.put(e.requestId(), e.at());
            case "released" -> {
              if (seen++ >= warmup && granted.containsKey(e.requestId())) {
                Instant start = started.getOrDefault(e.requestId(), e.at());
                toStart.add(Duration.between(granted.get(e.requestId()), start).toNanos());
                toRelease.add(Duration.between(start, e.at()).toNanos());
              }
            }
            default -> {}
          }
        }
      }
    }
    return List.of(toStart, toRelease);
  }
}
