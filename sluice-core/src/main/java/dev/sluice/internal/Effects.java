/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.WaiterRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * What a transition did besides its own result: leases it granted to waiters (of any owner) and
 * waiters it dropped at their queue deadline or because their owner died. Owners act on the ones
 * that are theirs. Lists are created only when needed; the common admission allocates none.
 */
final class Effects {
  private List<LeaseRecord> grants = List.of();
  private List<WaiterRecord> dropped = List.of();

  void granted(LeaseRecord lease) {
    if (grants.isEmpty()) {
      grants = new ArrayList<>(2);
    }
    grants.add(lease);
  }

  void dropped(WaiterRecord waiter) {
    if (dropped.isEmpty()) {
      dropped = new ArrayList<>(2);
    }
    dropped.add(waiter);
  }

  List<LeaseRecord> grants() {
    return grants;
  }

  List<WaiterRecord> dropped() {
    return dropped;
  }
}
