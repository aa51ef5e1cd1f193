/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The PostgreSQL workflow benchmarks, Sluice's {@code PostgresWorkflowStore} beside DBOS Transact
 * for Java on one server in one run, each engine in a schema of its own that is dropped before each
 * row and at the end, with real worker JVMs:
 *
 * <ol>
 *   <li>throughput: {@code --count} three-step executions enqueued, then 1 or 2 warmed worker JVMs
 *       are let go; from go to the last result;
 *   <li>latency: enqueue → result of a one-step execution, one at a time, with 1 or 2 worker JVMs
 *       running.
 * </ol>
 *
 * <p>Both engines get the same settings: each worker JVM runs {@code --workers} executions at once
 * on a pool of {@code --pool} connections; DBOS's queue is polled every {@code --dbos-poll-ms}. Run
 * it with {@code run-postgres-workflow-benchmarks.sh}. With {@code --rounds N} every row runs N
 * times, the engines taking turns to go first, and the report adds the medians: on a shared 2-core
 * machine one run's rows move by a fifth, so a single round cannot tell 0.9× from 1.1×. Progress on
 * stderr, Markdown on stdout.
 */
public final class PgWorkflowBench {
  private static final Duration LONG = Duration.ofMinutes(5);

  private final PgWorkflowSettings settings;
  private final JvmLauncher launcher;
  private final List<PgWorkflowReport.Row> rows = new ArrayList<>();

  private PgWorkflowBench(PgWorkflowSettings settings, JvmLauncher launcher) {
    this.settings = settings;
    this.launcher = launcher;
  }

  public static void main(String[] args) throws Exception {
    PgWorkflowSettings settings = PgWorkflowSettings.parse(args);
    Path runDir = Files.createTempDirectory("sluice-pg-wf-bench-");
    long began = System.nanoTime();
    PgTarget base = new PgTarget(settings.url(), "public", "none");
    String environment = PgBench.environment(base);
    progress("logs in " + runDir + "; " + environment);
    PgWorkflowBench bench =
        new PgWorkflowBench(settings, JvmLauncher.create(runDir, settings.jar()));
    try {
      for (int round = 1; round <= settings.rounds(); round++) {
        List<PgWorkflowPeer> order = turns(settings.peers(), round);
        for (int processes = 1; processes <= 2; processes++) {
          for (PgWorkflowPeer peer : order) {
            bench.throughput(round, peer, processes);
          }
        }
        for (int processes = 1; processes <= 2; processes++) {
          for (PgWorkflowPeer peer : order) {
            bench.latency(round, peer, processes);
          }
        }
      }
      System.out.print(PgWorkflowReport.render(settings, environment, bench.rows));
      System.out.flush();
    } finally {
      for (PgWorkflowPeer peer : settings.peers()) {
        bench.drop(peer.schema());
      }
      PgBench.deleteTree(runDir);
      progress(String.format(Locale.ROOT, "took %.0f s", (System.nanoTime() - began) / 1e9));
    }
  }

  /** The engines in the order they run in {@code round}: each goes first in every other round. */
  static List<PgWorkflowPeer> turns(List<PgWorkflowPeer> peers, int round) {
    List<PgWorkflowPeer> order = new ArrayList<>(peers);
    if (round % 2 == 0) {
      java.util.Collections.reverse(order);
    }
    return order;
  }

  private void throughput(int round, PgWorkflowPeer peer, int processes) throws Exception {
    progress(
        "round " + round + ", throughput: " + peer.label() + ", " + processes + " worker JVM(s)");
    PgTarget target = fresh(peer);
    try (PgWorkflowClient client = client(peer, target)) {
      List<Child> workers = startWorkers(peer, target, processes);
      try {
        client.enqueueThree("t", settings.count());
        long go = System.nanoTime();
        for (Child w : workers) {
          w.send("go");
        }
        client.awaitThree();
        double seconds = (System.nanoTime() - go) / 1e9;
        long startMillis = startMillis(workers);
        PgWorkflowReport.Row row =
            PgWorkflowReport.Row.throughput(
                round, peer, processes, settings.count(), seconds, startMillis);
        progress(String.format(Locale.ROOT, "  %,.0f workflows/s", row.rate()));
        rows.add(row);
      } finally {
        stopWorkers(workers);
      }
    }
  }

  private void latency(int round, PgWorkflowPeer peer, int processes) throws Exception {
    progress("round " + round + ", latency: " + peer.label() + ", " + processes + " worker JVM(s)");
    PgTarget target = fresh(peer);
    try (PgWorkflowClient client = client(peer, target)) {
      List<Child> workers = startWorkers(peer, target, processes);
      try {
        for (Child w : workers) {
          w.send("go");
        }
        startMillis(workers);
        List<Long> micros = new ArrayList<>();
        int total = settings.latencyWarmup() + settings.latencyRounds();
        for (int i = 0; i < total; i++) {
          long start = System.nanoTime();
          client.runOne("l-" + i);
          if (i >= settings.latencyWarmup()) {
            micros.add((System.nanoTime() - start) / 1000);
          }
        }
        Percentiles p = Percentiles.ofMicros(micros);
        progress("  " + p);
        rows.add(PgWorkflowReport.Row.latency(round, peer, processes, p));
      } finally {
        stopWorkers(workers);
      }
    }
  }

  private PgWorkflowClient client(PgWorkflowPeer peer, PgTarget target) throws Exception {
    return PgWorkflowClient.open(peer, target, settings.pool(), settings.dbosPoll());
  }

  /** Drops the peer's schema, so each row starts on empty tables. */
  private PgTarget fresh(PgWorkflowPeer peer) throws Exception {
    drop(peer.schema());
    return new PgTarget(settings.url(), peer.schema(), "run");
  }

  private void drop(String schema) throws Exception {
    new PgTarget(settings.url(), schema, "drop")
        .execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  private List<Child> startWorkers(PgWorkflowPeer peer, PgTarget target, int processes)
      throws Exception {
    List<Child> workers = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      String name = peer.name().toLowerCase(Locale.ROOT) + "-" + rows.size() + "-w" + i;
      workers.add(
          launcher.start(
              name,
              PgWorkflowWorker.class,
              peer.name(),
              settings.url(),
              target.schema(),
              peer.warmSchema(i),
              settings.warmup(),
              settings.workers(),
              settings.pool(),
              settings.dbosPoll().toMillis(),
              "w" + i));
    }
    for (Child w : workers) {
      w.expect("ready", LONG);
    }
    return workers;
  }

  /** The longest time a worker took to start its engine after go. */
  private static long startMillis(List<Child> workers) throws InterruptedException {
    long most = 0;
    for (Child w : workers) {
      most = Math.max(most, w.expectNumbers("started", LONG)[0]);
    }
    return most;
  }

  private static void stopWorkers(List<Child> workers) throws Exception {
    for (Child w : workers) {
      w.send("stop");
    }
    for (Child w : workers) {
      w.expect("stopped", LONG);
      w.close();
    }
  }

  static void progress(String line) {
    System.err.println("[pg-workflow-bench] " + line);
  }
}
