/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import dev.sluice.bench.Task;
import java.sql.SQLException;

/**
 * A cap whose measured cycle runs the benchmarks' tiny task ({@link Task#run()}, {@code
 * Blackhole.consumeCPU(10)}) while it holds the unit: acquire(1), task, release. Thread-safe as the
 * cap it wraps.
 */
final class TaskCycles implements Contender {
  private final Contender cap;

  TaskCycles(Contender cap) {
    this.cap = cap;
  }

  @Override
  public Permits forThread() throws Exception {
    Permits permits = cap.forThread();
    return new Permits() {
      @Override
      public void acquire(int weight) throws Exception {
        permits.acquire(weight);
      }

      @Override
      public void release() throws Exception {
        permits.release();
      }

      @Override
      public void cycle() throws Exception {
        permits.acquire(1);
        try {
          Task.run();
        } finally {
          permits.release();
        }
      }

      @Override
      public void close() throws SQLException {
        permits.close();
      }
    };
  }

  @Override
  public long emptyUpdates() {
    return cap.emptyUpdates();
  }

  @Override
  public void close() {
    cap.close();
  }
}
