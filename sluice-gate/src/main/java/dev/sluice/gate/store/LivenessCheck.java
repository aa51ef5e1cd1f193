/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.Ticket;
import dev.sluice.gate.internal.GateState;
import dev.sluice.gate.internal.Permits;
import dev.sluice.gate.internal.ProcTable;
import dev.sluice.local.LivenessWatcher;
import dev.sluice.local.Owner;
import dev.sluice.local.PoolDirectory;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a gate store tells the transitions about liveness: which owner registrations are proven dead
 * (their lock is free) and which launcher-less process groups have ended (judged from {@code
 * /proc}, only in this process's pid namespace). Never blocks and never waits.
 *
 * <p>Thread-safe.
 */
final class LivenessCheck {
  private final PoolDirectory dir;
  private final Changes changes;
  private final java.util.Map<String, AutoCloseable> watched = new ConcurrentHashMap<>();

  LivenessCheck(PoolDirectory dir, Changes changes) {
    this.dir = dir;
    this.changes = changes;
  }

  /** Applies every death that can be proven now; call under the gate. */
  void reclaim(GateState s, Permits permits, long now) {
    for (String owner : s.owners()) {
      if (!Owner.isLocal(owner) && Owner.provenDead(dir, owner)) {
        permits.ownerGone(owner, now);
        closeQuietly(watched.remove(owner));
      }
    }
    for (Ticket t : s.orphanedGroups()) {
      if (ProcTable.liveness(t.process()) == ProcTable.Liveness.DEAD) {
        permits.processEnded(t.requestId(), t.process(), now);
      }
    }
  }

  /** Wakes waiters when one of these owners' sockets closes. */
  void watch(Set<String> owners) {
    for (String owner : owners) {
      if (!Owner.isLocal(owner) && !watched.containsKey(owner)) {
        Path socket = dir.ownersDir().resolve(owner + ".sock");
        watched.put(owner, LivenessWatcher.instance().watch(socket, changes::bump));
      }
    }
  }

  /** Stops every watch, so that the JVM's watcher threads can end. */
  void close() {
    watched.values().forEach(LivenessCheck::closeQuietly);
    watched.clear();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        // Best effort: the watch ends with the process anyway.
      }
    }
  }
}
