/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which owners of other JVMs a pool's waiters of this JVM wait behind, and since when each has held
 * its oldest lease, by this JVM's monotonic clock from the commit that first showed it: what {@link
 * DeathWatch} needs to watch only holders that stay (a dead owner's leases never move).
 *
 * <p>Not thread-safe: confined to the pool's coordinator thread.
 */
final class ForeignHolders {
  /** Leases of other JVMs' owners seen while this JVM waited: lease id to first seen. */
  private Map<Long, Long> seen = new HashMap<>();

  /**
   * The owners to watch after a commit that left {@code state}: none unless one of {@code local}
   * waits; else every other owner holding a lease, with the time its oldest lease was first seen.
   */
  Map<String, Long> heldSince(PoolState state, Set<String> local) {
    boolean waiting = false;
    for (WaiterRecord w : state.waiters()) {
      if (local.contains(w.owner())) {
        waiting = true;
        break;
      }
    }
    if (!waiting) {
      seen = new HashMap<>();
      return Map.of();
    }
    long now = System.nanoTime();
    Map<Long, Long> still = new HashMap<>();
    Map<String, Long> since = new HashMap<>();
    for (LeaseRecord l : state.leases()) {
      if (!local.contains(l.owner())) {
        long first = seen.getOrDefault(l.id(), now);
        still.put(l.id(), first);
        since.merge(l.owner(), first, Math::min);
      }
    }
    seen = still;
    return since;
  }
}
