/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.local.PoolDirectory;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import dev.sluice.sqlite.internal.SqliteSession;
import dev.sluice.sqlite.internal.SqliteSettings;
import dev.sluice.sqlite.internal.StoredConfig;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A limiter pool in a directory on this machine, shared by every thread, limiter and process that
 * opens the same directory: one {@code maxConcurrent}, one spacing, one reservoir, one waiting
 * order. No daemon and no polling: each transaction runs under an exclusive lock on the directory's
 * {@code gate.lock}, and a writer wakes waiters through a pulse file they watch.
 *
 * <p><b>Fairness.</b> Requests are admitted in the order they reached the pool, across processes:
 * the transaction that frees capacity grants the queue's head, a heavy head is never overtaken, and
 * a waiting process is told of its grant when it wakes. (A plain SQLite semaphore, where each
 * process retries its own conditional update, lets one busy process starve the others.)
 *
 * <p><b>Crashes.</b> Each process that opens the pool registers an owner with a lock file and a
 * socket in {@code owners/}; when a process dies its lock is freed and its socket closes, and the
 * next transaction returns the capacity it held and drops what it waited for, whether or not its
 * leases had an expiration.
 *
 * <p><b>Durability.</b> SQLite in WAL mode with {@code synchronous=NORMAL} by default (a power loss
 * may undo the last commits, never corrupt the pool), or {@code FULL}. Fencing tokens never go
 * backwards, even after a power loss: they are reserved ahead in durably written blocks.
 *
 * <p><b>Format.</b> {@code state.db} records a format id. New pools are {@code
 * sluice-limiter-pool/2} (a compact binary state row); a pool created as {@code
 * sluice-limiter-pool/1} (a JSON state row) is read and written in that format for life, so older
 * processes on it keep working. A format this Sluice does not know (a newer pool opened by an older
 * Sluice) is refused with a {@link dev.sluice.StoreFormatException} that names both, and nothing is
 * changed.
 *
 * <p>Immutable and thread-safe. Opening a session creates the directory if needed and may block on
 * the gate while another process holds it.
 */
public final class SqliteStore implements PoolStore {
  /** Trace entries kept by a new pool unless set otherwise. */
  public static final int DEFAULT_TRACE_CAPACITY = 256;

  private final Path requested;
  private final TimeSource clock;
  private final int traceCapacity;
  private final boolean fullSync;
  private volatile PoolDirectory checked;

  private SqliteStore(Path requested, TimeSource clock, int traceCapacity, boolean fullSync) {
    this.requested = requested;
    this.clock = clock;
    this.traceCapacity = traceCapacity;
    this.fullSync = fullSync;
  }

  /**
   * The pool in {@code directory}, created on first use with mode 0700. A group-shared directory
   * (mode 2770, owned by a group this process is in) is accepted too; anything else writable by
   * others is refused when a limiter opens it.
   *
   * @param directory the pool directory
   * @return the store
   */
  public static SqliteStore directory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    return new SqliteStore(directory, TimeSource.system(), DEFAULT_TRACE_CAPACITY, false);
  }

  /**
   * Returns a store that keeps time with {@code clock}. Every process on a pool must share one
   * time; other clocks are for tests within one JVM.
   *
   * @param clock the clock
   * @return the store
   */
  public SqliteStore withClock(TimeSource clock) {
    return new SqliteStore(
        requested, Objects.requireNonNull(clock, "clock"), traceCapacity, fullSync);
  }

  /**
   * Returns a store that keeps {@code capacity} trace entries when it creates the pool.
   *
   * @param capacity zero to 100,000
   * @return the store
   */
  public SqliteStore withTraceCapacity(int capacity) {
    if (capacity < 0 || capacity > 100_000) {
      throw new IllegalArgumentException(
          "traceCapacity must be between 0 and 100000, was " + capacity);
    }
    return new SqliteStore(requested, clock, capacity, fullSync);
  }

  /**
   * Returns a store that commits with {@code synchronous=FULL}: no commit is lost to a power loss,
   * at the cost of an fsync per transaction.
   *
   * @return the store
   */
  public SqliteStore withFullSync() {
    return new SqliteStore(requested, clock, traceCapacity, true);
  }

  private PoolDirectory dir() {
    PoolDirectory d = checked;
    if (d == null) {
      d = PoolDirectory.open(requested);
      checked = d;
    }
    return d;
  }

  /**
   * The configuration the pool in this directory was created with, so that a tool acting on a pool
   * it did not create (an operator's drain) can open it. Only reads: a missing directory or pool is
   * an empty answer, and nothing is created or changed.
   *
   * @return the stored configuration, empty if the directory holds no pool
   * @throws dev.sluice.StoreFormatException if the directory or its pool cannot be used
   * @throws dev.sluice.BackendFailureException if the pool cannot be read
   */
  public Optional<LimiterConfig> storedConfig() {
    return StoredConfig.read(requested);
  }

  @Override
  public String poolName() {
    return dir().path().toString();
  }

  @Override
  public String poolIdentity() {
    return "sqlite:" + dir().path();
  }

  @Override
  public TimeSource clock() {
    return clock;
  }

  @Override
  public PoolSession open(LimiterConfig config) {
    Objects.requireNonNull(config, "config");
    return SqliteSession.open(new SqliteSettings(dir(), config, clock, traceCapacity, fullSync));
  }

  @Override
  public String toString() {
    return "SqliteStore[" + requested + "]";
  }
}
