/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.PoolStore;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference store: pools that live in this JVM, keyed by name. A pool's configuration,
 * reservoir balance, refill phase, spacing and fencing counter are kept for the life of the JVM,
 * across every limiter closing and reopening; so are its names, so a program that invents unbounded
 * pool names keeps unbounded pool state.
 *
 * <p>Commands run under the pool's lock on the calling thread. Nothing runs while nothing waits: no
 * background threads, no idle timers. An owner whose session closes without retiring is treated as
 * a dead process is by the other stores: the pool's next command reclaims its leases and queue
 * entries, and the other owners are woken to send one.
 *
 * <p>Thread-safe.
 */
public final class MemoryStore implements PoolStore {
  /** How many trace entries a pool keeps unless told otherwise. */
  public static final int DEFAULT_TRACE_CAPACITY = 64;

  private static final int MAX_KEY_LENGTH = 1024;
  private static final ConcurrentHashMap<String, MemoryPool> POOLS = new ConcurrentHashMap<>();
  private static final AtomicLong OWNERS = new AtomicLong();

  private final String key;
  private final TimeSource clock;
  private final int traceCapacity;

  private MemoryStore(String key, TimeSource clock, int traceCapacity) {
    this.key = checkKey(key);
    this.clock = Objects.requireNonNull(clock, "clock");
    if (traceCapacity < 0) {
      throw new IllegalArgumentException(
          "traceCapacity must not be negative (allowed 0.."
              + Integer.MAX_VALUE
              + "), was "
              + traceCapacity);
    }
    this.traceCapacity = traceCapacity;
  }

  /**
   * Returns the store of the pool named {@code key} in this JVM, on the system clock.
   *
   * @param key a non-blank name of at most 1024 characters
   * @return the store
   */
  public static MemoryStore named(String key) {
    return new MemoryStore(key, TimeSource.system(), DEFAULT_TRACE_CAPACITY);
  }

  /**
   * Returns the store of the pool named {@code key}, with its own clock (tests use a manual one).
   *
   * @param key a non-blank name of at most 1024 characters
   * @param clock the clock of the pool's deadlines
   * @return the store
   */
  public static MemoryStore named(String key, TimeSource clock) {
    return new MemoryStore(key, clock, DEFAULT_TRACE_CAPACITY);
  }

  /**
   * Returns a store like this one that keeps {@code traceCapacity} trace entries when it creates
   * the pool.
   *
   * @param traceCapacity zero or more
   * @return the store
   */
  public MemoryStore withTraceCapacity(int traceCapacity) {
    return new MemoryStore(key, clock, traceCapacity);
  }

  private static String checkKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException(
          "memory pool key must be non-blank and at most "
              + MAX_KEY_LENGTH
              + " characters, was '"
              + (key.length() > 64 ? key.substring(0, 64) + "…" : key)
              + "' ("
              + key.length()
              + " characters)");
    }
    return key;
  }

  @Override
  public String poolName() {
    return key;
  }

  @Override
  public String poolIdentity() {
    return "memory:" + key;
  }

  @Override
  public TimeSource clock() {
    return clock;
  }

  @Override
  public PoolSession open(LimiterConfig config) {
    Objects.requireNonNull(config, "config");
    MemoryPool pool =
        POOLS.computeIfAbsent(
            key,
            k -> new MemoryPool(k, PoolState.create(config, clock.wallMillis(), traceCapacity)));
    LimiterConfig stored;
    pool.lock();
    try {
      stored = pool.state().config();
    } finally {
      pool.unlock();
    }
    if (!stored.equals(config)) {
      throw new ConfigMismatchException(key, stored, config);
    }
    MemorySession session =
        new MemorySession(
            pool, "mem-" + ProcessHandle.current().pid() + "-" + OWNERS.incrementAndGet(), clock);
    pool.join(session);
    return session;
  }

  @Override
  public String toString() {
    return "MemoryStore[" + key + "]";
  }
}
