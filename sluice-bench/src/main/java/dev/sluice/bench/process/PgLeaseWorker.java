/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.time.Duration;

/**
 * A worker JVM that holds or waits for units of one {@link PgVariant} cap on command, for the wake
 * latency and crash reclaim measurements: {@link LeaseWorker}'s protocol.
 *
 * <p>Arguments: {@code VARIANT URL SCHEMA NAME CAP HEARTBEAT_MILLIS}.
 */
public final class PgLeaseWorker {
  private PgLeaseWorker() {}

  /**
   * Runs the worker.
   *
   * @param args {@code VARIANT URL SCHEMA NAME CAP HEARTBEAT_MILLIS}
   * @throws Exception if the protocol breaks
   */
  public static void main(String[] args) throws Exception {
    WorkerIo io = new WorkerIo();
    try {
      PgVariant variant = PgVariant.valueOf(args[0]);
      PgTarget target = new PgTarget(args[1], args[2], args[3]);
      int cap = Integer.parseInt(args[4]);
      Duration heartbeat = Duration.ofMillis(Long.parseLong(args[5]));
      LeaseWorker.serve(variant.open(target, cap, 1, heartbeat), io);
    } catch (Exception e) {
      e.printStackTrace();
      io.reply("failed " + e);
      Runtime.getRuntime().halt(2);
    }
  }
}
