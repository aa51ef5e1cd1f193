/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi.support;

import dev.sluice.TraceEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Brings this JVM's copy of a pool's state up to a newer stored one in place: the leases and
 * waiters that came and went, the scalars, and the trace entries written since. Another process
 * commits between most of this JVM's transactions, and rebuilding the whole state each time
 * (notably its trace, hundreds of entries) cost more than the change itself.
 *
 * <p>Used by any store that keeps a copy of the state between transactions. Stateless; the copy it
 * changes must be confined to the caller (a store's coordinator, under the pool's lock).
 */
public final class PoolStateRefresh {
  /** Entry ids allocated elsewhere since the copy, beyond which a rebuild is cheaper. */
  private static final long MAX_ID_GAP = 1_000_000;

  private PoolStateRefresh() {}

  /**
   * Updates {@code copy} to {@code stored} plus {@code newer} trace entries, and marks it clean.
   *
   * @param copy this JVM's copy, not dirty
   * @param stored the state row as read now
   * @param newer the trace entries from {@code copy}'s next sequence on, oldest first
   * @return whether it worked; if not, {@code copy} is in an undefined state and must be dropped
   */
  public static boolean apply(PoolState copy, StoredPoolState stored, List<TraceEvent> newer) {
    if (copy.createdAt() != stored.createdAt()
        || copy.trace().capacity() != stored.traceCapacity()) {
      return false;
    }
    PoolState.Scalars now = copy.scalars();
    PoolState.Scalars want = stored.scalars();
    if (want.lastEntryId() < now.lastEntryId()
        || want.lastEntryId() - now.lastEntryId() > MAX_ID_GAP
        || want.lastFencingToken() < now.lastFencingToken()) {
      // Counters never go back while a copy is valid; a gap this large is rare enough to rebuild.
      return false;
    }
    if (want.reservoirLimited()) {
      copy.reservoir(want.reservoir());
    } else if (now.reservoirLimited() || now.reservoir() != want.reservoir()) {
      return false;
    }
    copy.nextAllowedAt(want.nextAllowedAt());
    copy.nextRefreshAt(want.nextRefreshAt());
    for (long id = now.lastEntryId(); id < want.lastEntryId(); id++) {
      copy.nextEntryId();
    }
    copy.raiseFencingFloor(want.lastFencingToken());
    copy.control(stored.control());
    if (!refreshLeases(copy, stored.leases()) || !refreshWaiters(copy, stored.waiters())) {
      return false;
    }
    for (TraceEvent e : newer) {
      if (e.sequence() != copy.trace().nextSequence()) {
        return false;
      }
      copy.trace().add(e.kind(), e.leaseId(), e.owner(), e.activeWeight(), e.at().toEpochMilli());
    }
    copy.markClean();
    return true;
  }

  private static boolean refreshLeases(PoolState copy, List<LeaseRecord> want) {
    Map<Long, LeaseRecord> wanted = new HashMap<>(want.size() * 2);
    for (LeaseRecord l : want) {
      wanted.put(l.id(), l);
    }
    List<LeaseRecord> have = List.copyOf(copy.leases());
    for (LeaseRecord l : have) {
      if (!l.equals(wanted.get(l.id()))) {
        copy.removeLease(l.id());
      }
    }
    for (LeaseRecord l : want) {
      if (copy.lease(l.id()) == null) {
        copy.putLease(l);
      }
    }
    return sameOrder(copy.leases().iterator(), want);
  }

  private static boolean refreshWaiters(PoolState copy, List<WaiterRecord> want) {
    Map<Long, WaiterRecord> wanted = new HashMap<>(want.size() * 2);
    for (WaiterRecord w : want) {
      wanted.put(w.id(), w);
    }
    for (Iterator<WaiterRecord> it = copy.waiterIterator(); it.hasNext(); ) {
      WaiterRecord w = it.next();
      if (!w.equals(wanted.get(w.id()))) {
        it.remove();
      }
    }
    for (WaiterRecord w : want) {
      if (copy.waiter(w.id()) == null) {
        copy.addWaiter(w);
      }
    }
    // A waiter kept from the copy but stored behind one that joined later would be out of order:
    // the queue order is the point of the whole store, so anything but an exact match rebuilds.
    return sameOrder(copy.waiters().iterator(), want);
  }

  private static <T> boolean sameOrder(Iterator<T> have, List<T> want) {
    for (T w : want) {
      if (!have.hasNext() || !have.next().equals(w)) {
        return false;
      }
    }
    return !have.hasNext();
  }
}
