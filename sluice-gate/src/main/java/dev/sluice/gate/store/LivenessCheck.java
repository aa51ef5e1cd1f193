/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.gate.Ticket;
import dev.sluice.gate.internal.GateState;
import dev.sluice.gate.internal.Permits;
import dev.sluice.gate.internal.ProcTable;
import dev.sluice.local.OwnerWatches;
import dev.sluice.local.PoolDirectory;
import dev.sluice.spi.support.ChangeCounter;
import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.util.Set;

/**
 * What a gate store tells the transitions about liveness: which owner registrations are proven dead
 * (their lock is free) and which launcher-less process groups have ended (judged from {@code
 * /proc}, only in this process's pid namespace). Never blocks and never waits.
 *
 * <p>Thread-safe.
 */
final class LivenessCheck {
  private static final Log LOG = Logs.of(LivenessCheck.class);

  private final OwnerWatches watches;

  LivenessCheck(PoolDirectory dir, ChangeCounter changes) {
    this.watches = new OwnerWatches(dir, owner -> changes.bump());
  }

  /** Applies every death that can be proven now; call under the gate. */
  void reclaim(GateState s, Permits permits, long now) {
    for (String owner : s.owners()) {
      if (watches.check(owner)) {
        LOG.info("gate owner {} died; its permits and queued requests are reclaimed", owner);
        permits.ownerGone(owner, now);
      }
    }
    for (Ticket t : s.orphanedGroups()) {
      if (ProcTable.liveness(t.process()) == ProcTable.Liveness.DEAD) {
        LOG.info(
            "the process group of request {} ended without its launcher; its permit is reclaimed",
            t.requestId());
        permits.processEnded(t.requestId(), t.process(), now);
      }
    }
  }

  /** Whether {@code owner} is proven dead now (its lock is free); call under the gate. */
  boolean provenDead(String owner) {
    return watches.check(owner);
  }

  /** Wakes waiters when one of these owners' sockets closes. */
  void watch(Set<String> owners) {
    owners.forEach(watches::watch);
  }

  /** Stops every watch, so that the JVM's watcher threads can end. */
  void close() {
    watches.close();
  }
}
