/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import dev.sluice.spi.ControlState;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.List;

/**
 * A pool's stored state as decoded, whatever its encoding, before it becomes a {@link PoolState}:
 * the trace is apart (a store keeps it where it likes, see {@link #pendingTrace}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param createdAt store time of the pool's creation
 * @param scalars the counters and deadlines
 * @param control the cooldown, breaker and drain state
 * @param traceCapacity trace entries the pool keeps
 * @param leases live leases in grant order
 * @param waiters the queue, head first
 * @param lastPulse the number the store keeps with the row (the SQLite store: the version of the
 *     last commit that pulsed), or {@link #UNKNOWN} where its format does not keep one
 * @param pendingTrace trace entries kept in the row until the store moves them elsewhere, oldest
 *     first
 */
public record StoredPoolState(
    long createdAt,
    PoolState.Scalars scalars,
    ControlState control,
    int traceCapacity,
    List<LeaseRecord> leases,
    List<WaiterRecord> waiters,
    long lastPulse,
    List<TraceEvent> pendingTrace) {
  /** {@link #lastPulse} of a format that does not keep it. */
  public static final long UNKNOWN = Long.MAX_VALUE;

  /**
   * A fresh, clean state with {@code trace} (oldest first) as its trace.
   *
   * @param config the pool's configuration
   * @param trace the trace entries to keep
   * @return the state
   */
  public PoolState restore(LimiterConfig config, List<TraceEvent> trace) {
    PoolState s =
        PoolState.restore(config, createdAt, scalars, leases, waiters, trace, traceCapacity);
    s.control(control);
    s.markClean();
    return s;
  }
}
