/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateException;

/**
 * Which pools exist: a pool is made by setting its capacity, except {@value
 * AcquireRequest#DEFAULT_POOL}, which the first request makes (with the settings' default
 * capacity), so that a plain {@code sluice run} works on a fresh machine. A request for any other
 * pool that was never set up is refused: a mistyped name must not become a new pool with nobody
 * else in it, which would let the command past the gate without a word. A pool is removed only
 * while nothing is in it.
 *
 * <p>Not thread-safe: a store applies one transition at a time.
 */
final class PoolRules {
  private final GateState s;

  PoolRules(GateState s) {
    this.s = s;
  }

  /** Whether a request may use {@code pool}: it was set up, or it is the default pool. */
  boolean usable(String pool) {
    return s.pools.containsKey(pool) || pool.equals(AcquireRequest.DEFAULT_POOL);
  }

  /** The pools that exist, for messages: {@code build, ci}, or {@code none yet}. */
  String known() {
    return s.pools.isEmpty() ? "none yet" : String.join(", ", s.pools.keySet());
  }

  /**
   * Checks that a request may use {@code pool}.
   *
   * @throws GateException {@code unknown_pool}, naming the known pools and how to make this one
   */
  void requireUsable(String pool) {
    if (usable(pool)) {
      return;
    }
    String message = "no pool '" + pool + "' (known pools: " + known() + "); create it with: ";
    if (pool.equals(s.defaultPool)) {
      // The pool was named by the configuration, not by the request: say where it came from.
      throw new GateException(
          GateException.Code.UNKNOWN_POOL,
          message
              + "sluice pool set "
              + pool
              + " --capacity N; default.pool in the gate's configuration names it (change it with:"
              + " sluice config set default.pool P)");
    }
    throw new GateException(
        GateException.Code.UNKNOWN_POOL,
        message
            + "sluice pool set "
            + pool
            + " --capacity N, or leave out --pool to use the "
            + s.defaultPool
            + " pool");
  }

  /**
   * Checks that a request of {@code weight} can ever fit {@code pool} (made with the default
   * capacity by its first request if new).
   *
   * @throws GateException {@code weight_exceeds_capacity}
   */
  void requireFits(String pool, int weight) {
    PoolRecord existing = s.pools.get(pool);
    int capacity = existing == null ? s.settings.defaultCapacity() : existing.capacity;
    if (weight > capacity) {
      throw new GateException(
          GateException.Code.WEIGHT_EXCEEDS_CAPACITY,
          "pool " + pool + ": weight " + weight + " exceeds its capacity " + capacity);
    }
  }

  /**
   * Removes an empty pool: no holder, offer, queued or paused request (a paused one may rejoin).
   *
   * @return the removed pool's capacity
   * @throws GateException {@code unknown_pool}, or {@code pool_busy} naming what is in it
   */
  int remove(String pool, String actor, String reason, long now) {
    AcquireRequest.poolName(pool);
    AcquireRequest.text("actor", actor, 1, 128);
    AcquireRequest.text("reason", reason, 0, 500);
    PoolRecord p = s.pools.get(pool);
    if (p == null) {
      throw new GateException(GateException.Code.UNKNOWN_POOL, "no pool '" + pool + "' to remove");
    }
    int live = 0;
    for (Entry e : s.entries.values()) {
      if (e.pool.equals(pool) && e.state.isLive()) {
        live++;
      }
    }
    if (live > 0) {
      throw new GateException(
          GateException.Code.POOL_BUSY,
          "pool "
              + pool
              + " still has "
              + live
              + " live request"
              + (live == 1 ? "" : "s")
              + " (holders, offers, queued or paused): remove it once they have ended");
    }
    s.pools.remove(pool);
    s.event(
        now,
        "pool_removed",
        pool,
        "",
        actor,
        "capacity " + p.capacity + (reason.isEmpty() ? "" : ": " + reason));
    return p.capacity;
  }
}
