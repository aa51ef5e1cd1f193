/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import java.util.HashMap;
import java.util.Map;

/**
 * This JVM's shared pools, one per {@linkplain PoolStore#poolIdentity() pool identity}: the first
 * limiter of a pool opens its session, later ones join it (with the same configuration only), and
 * the last one to leave retires the owner.
 *
 * <p>Thread-safe: attaching and detaching are serialised, and retiring an owner happens before a
 * new limiter of the same pool can open the next session.
 */
final class PoolRegistry {
  private static final Map<String, Attached> POOLS = new HashMap<>();

  private PoolRegistry() {}

  /** A pool and how many limiters use it; guarded by {@link #POOLS}. */
  private static final class Attached {
    final SharedPool pool;
    int users = 1;

    Attached(SharedPool pool) {
      this.pool = pool;
    }
  }

  /** Joins the JVM's owner of the pool, opening a session if there is none. */
  static SharedPool attach(PoolStore store, LimiterConfig config) {
    synchronized (POOLS) {
      Attached attached = POOLS.get(store.poolIdentity());
      if (attached != null) {
        SharedPool pool = attached.pool;
        if (!pool.config().equals(config)) {
          throw new ConfigMismatchException(store.poolName(), pool.config(), config);
        }
        attached.users++;
        return pool;
      }
      PoolSession session = store.open(config);
      SharedPool pool = new SharedPool(store, config, session);
      POOLS.put(pool.identity(), new Attached(pool));
      session.onChange(pool::onForeignChange);
      return pool;
    }
  }

  /** Leaves the pool; the last limiter to leave retires the owner and closes the session. */
  static void detach(SharedPool pool) {
    synchronized (POOLS) {
      Attached attached = POOLS.get(pool.identity());
      if (attached == null || attached.pool != pool || --attached.users > 0) {
        return;
      }
      POOLS.remove(pool.identity());
      pool.retire();
    }
  }
}
