/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import dev.sluice.PoolSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Builds the public {@link PoolSnapshot} of a state. */
final class Snapshots {
  private Snapshots() {}

  static PoolSnapshot of(PoolState s, long now) {
    List<PoolSnapshot.LeaseInfo> leases = new ArrayList<>();
    for (LeaseRecord l : s.leases()) {
      leases.add(
          new PoolSnapshot.LeaseInfo(
              l.id(),
              l.owner(),
              l.weight(),
              Instant.ofEpochMilli(l.grantedAt()),
              instant(l.expiresAt()),
              l.fencingToken()));
    }
    Collection<WaiterRecord> queue = s.waiters();
    List<PoolSnapshot.WaiterInfo> waiters = new ArrayList<>(queue.size());
    for (WaiterRecord w : queue) {
      waiters.add(
          new PoolSnapshot.WaiterInfo(
              w.id(),
              w.owner(),
              w.weight(),
              Instant.ofEpochMilli(w.enqueuedAt()),
              instant(w.queueDeadline())));
    }
    return new PoolSnapshot(
        Instant.ofEpochMilli(now),
        s.config(),
        s.activeWeight(),
        s.reservoirLimited() ? OptionalLong.of(s.reservoir()) : OptionalLong.empty(),
        leases,
        waiters,
        s.trace().entries(),
        instant(s.nextRefreshAt()));
  }

  /** A store time as an instant, empty for {@link PoolState#NEVER}. */
  static Optional<Instant> instant(long at) {
    return at == PoolState.NEVER ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
  }
}
