/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.local.OwnerWatches;
import dev.sluice.local.PoolDirectory;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.WaiterRecord;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which other processes' owners of one pool this JVM watches, which it suspects dead (their socket
 * reached end-of-file), and which are proven dead under the gate. Only suspects are tried, so a
 * transaction costs no file lock probes while every owner lives.
 *
 * <p>Thread-safe.
 */
final class OwnerLiveness implements AutoCloseable {
  private final Runnable onSuspect;
  private final Set<String> suspects = ConcurrentHashMap.newKeySet();
  private final OwnerWatches watches;

  /**
   * @param dir the pool
   * @param onSuspect run on the selector thread when an owner is suspected, so someone looks
   */
  OwnerLiveness(PoolDirectory dir, Runnable onSuspect) {
    this.onSuspect = onSuspect;
    this.watches = new OwnerWatches(dir, this::suspect);
  }

  /**
   * Owners in the state that are proven dead now: the suspected ones, or every foreign one on this
   * JVM's first transaction (they may have died while nobody watched). Call under the gate.
   */
  Set<String> provenDead(PoolState s, boolean firstTransaction) {
    Set<String> candidates = new HashSet<>();
    if (firstTransaction) {
      candidates.addAll(ownersIn(s));
    } else if (!suspects.isEmpty()) {
      candidates.addAll(suspects);
    }
    if (candidates.isEmpty()) {
      return Set.of();
    }
    Set<String> dead = new HashSet<>();
    for (String owner : candidates) {
      suspects.remove(owner);
      if (watches.check(owner)) {
        dead.add(owner);
      }
    }
    return dead;
  }

  /** Whether some owner is suspected and not yet tried. */
  boolean hasSuspects() {
    return !suspects.isEmpty();
  }

  /** Connects to each foreign owner that holds or waits in {@code s}, to hear of its death. */
  void watchOwnersOf(PoolState s) {
    if (s == null) {
      return;
    }
    for (String owner : ownersIn(s)) {
      watches.watch(owner);
    }
  }

  /** Stops watching, so that the JVM's liveness thread can end. */
  @Override
  public void close() {
    watches.close();
  }

  /**
   * An owner of this JVM closed without retiring: its lock is released, so the next transaction
   * proves it dead and reclaims what it held, as it would for another process's death.
   */
  void localOwnerGone(String owner) {
    suspect(owner);
  }

  private void suspect(String owner) {
    suspects.add(owner);
    onSuspect.run();
  }

  private static Set<String> ownersIn(PoolState s) {
    Set<String> owners = new HashSet<>();
    for (LeaseRecord l : s.leases()) {
      owners.add(l.owner());
    }
    for (WaiterRecord w : s.waiters()) {
      owners.add(w.owner());
    }
    return owners;
  }
}
