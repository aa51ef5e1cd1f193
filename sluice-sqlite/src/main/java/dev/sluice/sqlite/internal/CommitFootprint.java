/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The queue entries and leases before a batch, to tell afterwards which owners the commit may
 * concern: those whose queue entries are gone (granted, dropped or withdrawn) and those given a new
 * lease, which covers an entry that joined and was granted within the same batch; and whether the
 * pool was {@linkplain #untimed untimed} before it.
 *
 * <p>Not thread-safe: used by the coordinator within one batch.
 */
final class CommitFootprint {
  private final Map<Long, String> queued = new HashMap<>();
  private final Set<Long> leases = new HashSet<>();
  private final boolean untimedBefore;

  /** Records the state before the batch, which runs at store time {@code now}. */
  CommitFootprint(PoolState before, long now) {
    untimedBefore = untimed(before, now);
    for (WaiterRecord w : before.waiters()) {
      queued.put(w.id(), w.owner());
    }
    for (LeaseRecord l : before.leases()) {
      leases.add(l.id());
    }
  }

  /** The owners the change from the recorded state to {@code after} may concern. */
  Set<String> affectedOwners(PoolState after) {
    Set<String> owners = new HashSet<>();
    for (Map.Entry<Long, String> e : queued.entrySet()) {
      if (after.waiter(e.getKey()) == null) {
        owners.add(e.getValue());
      }
    }
    for (LeaseRecord l : after.leases()) {
      if (!leases.contains(l.id())) {
        owners.add(l.owner());
      }
    }
    return owners;
  }

  /** Whether the pool was untimed before the batch and is after it, at the same time. */
  boolean untimedThroughout(PoolState after, long now) {
    return untimedBefore && untimed(after, now);
  }

  /**
   * Whether no waiter of {@code s} can be admitted by time alone: no lease that expires, no
   * reservoir, no refill, no spacing in the future. Then, after any transaction (which grants every
   * head waiter that fits), a waiter's next chance comes only from another transaction, never from
   * a deadline, so a commit that moves none of these and removes or grants no one's entries leaves
   * every waiter's timer as right as it was. {@code earliestExpiry} is a lower bound that removals
   * do not raise, so a pool that had an expiring lease counts as timed until it has no lease.
   */
  static boolean untimed(PoolState s, long now) {
    return s.earliestExpiry() == PoolState.NEVER
        && !s.reservoirLimited()
        && s.nextRefreshAt() == PoolState.NEVER
        && s.nextAllowedAt() <= now;
  }
}
