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
 * lease, which covers an entry that joined and was granted within the same batch.
 *
 * <p>Not thread-safe: used by the coordinator within one batch.
 */
final class CommitFootprint {
  private final Map<Long, String> queued = new HashMap<>();
  private final Set<Long> leases = new HashSet<>();

  /** Records the state before the batch. */
  CommitFootprint(PoolState before) {
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
}
