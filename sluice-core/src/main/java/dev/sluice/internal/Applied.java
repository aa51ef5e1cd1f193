/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.WaiterRecord;
import java.util.List;

/**
 * The outcome of one transition: its own result, the grants and drops it made on the way, and the
 * next store time at which the queue's head could change by time alone.
 *
 * @param value the transition's own result
 * @param grants leases granted to waiters, any owner
 * @param dropped waiters removed without a grant, any owner
 * @param nextDeadline store time to look again, or {@code PoolState.NEVER}
 * @param <T> the result type
 */
record Applied<T>(
    T value, List<LeaseRecord> grants, List<WaiterRecord> dropped, long nextDeadline) {}
