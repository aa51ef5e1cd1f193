/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.TimeSource;
import java.util.Map;
import java.util.WeakHashMap;
import javax.sql.DataSource;

/**
 * The database server's clock as this JVM sees it: local wall time plus the offset last measured
 * against {@code clock_timestamp()} in a transaction. Transactions take their time from the server
 * itself; this clock only times this JVM's wakes for the deadlines they computed, so a small error
 * costs an early or late look, never a wrong decision.
 *
 * <p>Thread-safe. One per data source, shared by every store on it.
 */
public final class ServerClock implements TimeSource {
  private static final Map<DataSource, ServerClock> BY_SOURCE = new WeakHashMap<>();

  private volatile long offsetMillis;

  private ServerClock() {}

  /**
   * The clock of the server behind {@code dataSource}.
   *
   * @param dataSource the data source
   * @return its clock
   */
  public static ServerClock of(DataSource dataSource) {
    synchronized (BY_SOURCE) {
      return BY_SOURCE.computeIfAbsent(dataSource, k -> new ServerClock());
    }
  }

  /**
   * Records a reading of the server's clock taken between two local readings.
   *
   * @param serverMillis the server's time
   * @param localBefore local wall time before the statement was sent
   * @param localAfter local wall time after its answer arrived
   */
  void observe(long serverMillis, long localBefore, long localAfter) {
    offsetMillis = serverMillis - (localBefore + (localAfter - localBefore) / 2);
  }

  @Override
  public long wallMillis() {
    return System.currentTimeMillis() + offsetMillis;
  }

  @Override
  public long monotonicNanos() {
    return System.nanoTime();
  }

  @Override
  public Timer schedule(Runnable task, long delayNanos) {
    return TimeSource.system().schedule(task, delayNanos);
  }
}
