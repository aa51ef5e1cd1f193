/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

/**
 * A worker JVM of the PostgreSQL throughput measurement: opens one {@link PgVariant} cap and runs
 * {@link ThroughputWorker}'s protocol on it, each cycle acquire(1), the tiny task, release ({@link
 * TaskCycles}).
 *
 * <p>Arguments: {@code VARIANT URL SCHEMA NAME THREADS CAP}.
 */
public final class PgThroughputWorker {
  private PgThroughputWorker() {}

  /**
   * Runs the worker.
   *
   * @param args {@code VARIANT URL SCHEMA NAME THREADS CAP}
   * @throws Exception if the cap cannot be opened or the protocol breaks
   */
  public static void main(String[] args) throws Exception {
    PgVariant variant = PgVariant.valueOf(args[0]);
    PgTarget target = new PgTarget(args[1], args[2], args[3]);
    int threads = Integer.parseInt(args[4]);
    int cap = Integer.parseInt(args[5]);
    WorkerIo io = new WorkerIo();
    Contender contender = variant.open(target, cap, threads, PgBenchSettings.DEFAULT_HEARTBEAT);
    ThroughputWorker.serve(new TaskCycles(contender), threads, io);
  }
}
