/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.List;

/**
 * A pool's state row as decoded, whatever its encoding, before it becomes a {@link PoolState}: the
 * trace is not part of it (it has its own table); the version of the last commit that pulsed is, in
 * format 2.
 *
 * @param createdAt store time of the pool's creation
 * @param scalars the counters and deadlines
 * @param traceCapacity trace entries the pool keeps
 * @param leases live leases in grant order
 * @param waiters the queue, head first
 * @param lastPulse the version of the last commit that pulsed, or {@link PulseText#UNKNOWN} where
 *     the format does not keep it (format 1: processes of an older Sluice do not write it)
 * @param pendingTrace trace entries kept in the row until they are moved to the trace table (format
 *     2), oldest first
 */
record StoredState(
    long createdAt,
    PoolState.Scalars scalars,
    int traceCapacity,
    List<LeaseRecord> leases,
    List<WaiterRecord> waiters,
    long lastPulse,
    List<TraceEvent> pendingTrace) {

  /** A fresh state with {@code trace} (oldest first) as its trace. */
  PoolState restore(LimiterConfig config, List<TraceEvent> trace) {
    return PoolState.restore(config, createdAt, scalars, leases, waiters, trace, traceCapacity);
  }
}
