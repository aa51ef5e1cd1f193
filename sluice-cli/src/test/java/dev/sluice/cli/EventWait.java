/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waits on a home's event feed (the gate's own wait, woken by its pulse: no polling) for the first
 * event of a type in a pool, so a test knows another process reached a state.
 */
final class EventWait {
  private EventWait() {}

  /** The first event of {@code type} in {@code pool}; fails after the process-test timeout. */
  static GateEvent await(GateService gate, String type, String pool) throws InterruptedException {
    return await(gate, type, pool, 0);
  }

  /** The first event of {@code type} in {@code pool} after sequence {@code since}. */
  static GateEvent await(GateService gate, String type, String pool, long since)
      throws InterruptedException {
    return first(
        gate, e -> e.type().equals(type) && e.pool().equals(pool), type + " in " + pool, since);
  }

  /** The first event of {@code type} of one request; fails after the process-test timeout. */
  static GateEvent awaitOf(GateService gate, String type, String requestId)
      throws InterruptedException {
    return first(
        gate,
        e -> e.type().equals(type) && e.requestId().equals(requestId),
        type + " of " + requestId,
        0);
  }

  private static GateEvent first(
      GateService gate, Predicate<GateEvent> wanted, String what, long after)
      throws InterruptedException {
    long since = after;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SluiceProcesses.TIMEOUT_SECONDS);
    while (System.nanoTime() < deadline) {
      for (GateEvent e : gate.awaitEvents(since, 100, Duration.ofSeconds(10))) {
        if (wanted.test(e)) {
          return e;
        }
        since = e.sequence();
      }
    }
    throw new AssertionError("no event " + what);
  }
}
