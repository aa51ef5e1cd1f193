/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.postgres.internal.PgSession;
import dev.sluice.postgres.internal.PgSettings;
import dev.sluice.postgres.internal.PgStoredConfig;
import dev.sluice.postgres.internal.SettingChecks;
import dev.sluice.postgres.internal.Tables;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A limiter pool in a PostgreSQL database, shared by every thread, limiter, process and machine
 * that opens the same pool name in the same schema: one {@code maxConcurrent}, one spacing, one
 * reservoir, one waiting order.
 *
 * <pre>{@code
 * try (Limiter limiter = Limiter.open(PostgresStore.of(dataSource, "payments"), config)) {
 *   limiter.call(() -> payments.charge(order));
 * }
 * }</pre>
 *
 * <p><b>Transactions.</b> A JVM batches its callers' commands; each batch is one transaction that
 * locks the pool's row ({@code SELECT ... FOR UPDATE}), applies Sluice's one pool algorithm to
 * every command, writes the row and commits. Contending JVMs wait for the row lock in the server;
 * nothing retries. The database's {@code clock_timestamp()}, read in the same transaction, is the
 * clock of every shared deadline (lease expiry, spacing, refill, queue deadlines).
 *
 * <p><b>Wakes.</b> Each JVM keeps one dedicated connection per data source on which it LISTENs; a
 * commit that concerns owners in other JVMs NOTIFYs them by name. After that connection is lost the
 * JVM reconnects, listens again and has every owner read its pool again in full. Waiters otherwise
 * sleep until their computed deadline; nothing polls.
 *
 * <p><b>Owner liveness.</b> Each JVM registers an owner per pool, which holds a session-level
 * advisory lock on the dedicated connection for its lifetime; the server drops it the moment the
 * connection dies, and the next transaction on the pool reclaims the owner's leases and queued
 * requests. An owner also has a heartbeat by the server's clock, renewed at a third of the
 * {@linkplain Builder#heartbeatTimeout timeout}: an owner whose heartbeat lapsed (its JVM paused,
 * or cut off from the server) is reclaimed likewise, and that JVM learns it at its next command or
 * heartbeat ({@link dev.sluice.OwnerLostException}) and goes on as a new owner. A waiter behind an
 * owner that died without a word learns of it at the pool's next transaction or within a third of
 * the heartbeat timeout. A server restart frees every lock at once: a free lock counts as death
 * only if its owner took it since the server's current start, so live JVMs keep their owners across
 * a restart shorter than the heartbeat timeout. A JVM stopped inside a batch's transaction holds
 * the pool's row lock for at most a third of the heartbeat timeout (the server then ends the
 * transaction), and an answer that reaches a JVM after its heartbeat may have lapsed admits
 * nothing: the owner counts as lost.
 *
 * <p><b>Schema.</b> The library creates and versions its tables itself, in the chosen schema, in
 * its own schema-version table: older tables are migrated forward in one transaction, and tables of
 * a newer version are refused with a {@link dev.sluice.StoreFormatException} that names both
 * versions, changing nothing. Two JVMs that create a pool at once create it once.
 *
 * <p><b>Failures.</b> A lost connection, a server shutting down or restarting, a serialization
 * failure, deadlock or lock timeout are {@linkplain
 * dev.sluice.BackendFailureException.Kind#TRANSIENT transient}: the limiter fails what was pending
 * and recovers by itself. A damaged row, a foreign format or a missing table are permanent.
 *
 * <p>Immutable and thread-safe. {@link #open} blocks on the database.
 */
public final class PostgresStore implements PoolStore {
  /** The schema of the tables unless set otherwise. */
  public static final String DEFAULT_SCHEMA = "public";

  /** The prefix of every table name unless set otherwise. */
  public static final String DEFAULT_TABLE_PREFIX = "sluice_";

  /** How long an owner's heartbeat lasts unless set otherwise. */
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);

  /** Trace entries kept by a new pool unless set otherwise. */
  public static final int DEFAULT_TRACE_CAPACITY = 128;

  private static final int MAX_POOL_LENGTH = 200;

  private final PgSettings settings;

  private PostgresStore(PgSettings settings) {
    this.settings = settings;
  }

  /**
   * The pool named {@code pool} in the default schema and table prefix, on the server's clock.
   *
   * @param dataSource where connections come from; one of them is kept for wakes and liveness
   * @param pool a non-blank name of at most 200 characters
   * @return the store
   */
  public static PostgresStore of(DataSource dataSource, String pool) {
    return builder(dataSource, pool).build();
  }

  /**
   * A builder for the pool named {@code pool}.
   *
   * @param dataSource where connections come from; one of them is kept for wakes and liveness
   * @param pool a non-blank name of at most 200 characters
   * @return the builder
   */
  public static Builder builder(DataSource dataSource, String pool) {
    return new Builder(dataSource, pool);
  }

  /**
   * The configuration this pool was created with, so that a tool acting on a pool it did not create
   * (an operator's drain) can open it. Only reads: missing tables or a missing pool are an empty
   * answer, and nothing is created or changed.
   *
   * @return the stored configuration, empty if the database holds no such pool
   * @throws dev.sluice.StoreFormatException if the pool's row cannot be used
   * @throws dev.sluice.BackendFailureException if the database cannot be read
   */
  public Optional<LimiterConfig> storedConfig() {
    return PgStoredConfig.read(settings);
  }

  @Override
  public String poolName() {
    return settings.pool();
  }

  @Override
  public String poolIdentity() {
    return "postgres:"
        + Integer.toHexString(System.identityHashCode(settings.dataSource()))
        + ":"
        + settings.tables().schema()
        + "."
        + settings.tables().prefix()
        + ":"
        + settings.pool();
  }

  @Override
  public TimeSource clock() {
    return settings.clock();
  }

  @Override
  public PoolSession open(LimiterConfig config) {
    Objects.requireNonNull(config, "config");
    return PgSession.open(settings, config);
  }

  @Override
  public String toString() {
    return "PostgresStore[" + settings.describe() + "]";
  }

  /**
   * Builds a {@link PostgresStore}; every setting is checked when it is set, naming the setting,
   * the value and what is allowed.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private final String pool;
    private String schema = DEFAULT_SCHEMA;
    private String tablePrefix = DEFAULT_TABLE_PREFIX;
    private Duration heartbeatTimeout = DEFAULT_HEARTBEAT_TIMEOUT;
    private TimeSource clientClock;
    private int traceCapacity = DEFAULT_TRACE_CAPACITY;

    private Builder(DataSource dataSource, String pool) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      Objects.requireNonNull(pool, "pool");
      if (pool.isBlank() || pool.length() > MAX_POOL_LENGTH) {
        throw new IllegalArgumentException(
            "pool must be non-blank and at most "
                + MAX_POOL_LENGTH
                + " characters, was '"
                + (pool.length() > 64 ? pool.substring(0, 64) + "…" : pool)
                + "' ("
                + pool.length()
                + " characters)");
      }
      this.pool = pool;
    }

    /**
     * Sets the schema of the tables, created if missing (default {@code public}).
     *
     * @param schema a lower-case SQL identifier: a letter or underscore, then letters, digits or
     *     underscores, at most 63 characters
     * @return this builder
     */
    public Builder schema(String schema) {
      this.schema = SettingChecks.schema(schema);
      return this;
    }

    /**
     * Sets the prefix of every table name (default {@code sluice_}), so that several stores can
     * share one schema.
     *
     * @param tablePrefix a lower-case SQL identifier of at most 40 characters
     * @return this builder
     */
    public Builder tablePrefix(String tablePrefix) {
      this.tablePrefix = SettingChecks.tablePrefix(tablePrefix);
      return this;
    }

    /**
     * Sets how long an owner's heartbeat lasts (default 30 s): an owner that has not renewed it for
     * this long by the server's clock counts as dead, and what it held is reclaimed. It is renewed
     * at a third of the timeout.
     *
     * @param timeout from 1 second to 1 hour
     * @return this builder
     */
    public Builder heartbeatTimeout(Duration timeout) {
      this.heartbeatTimeout = SettingChecks.heartbeatTimeout(timeout);
      return this;
    }

    /**
     * Keeps the pool's shared deadlines on {@code clock} instead of the server's {@code
     * clock_timestamp()}: for tests on a manual clock within one JVM. Every process on a pool must
     * share one time, so production code leaves the server's clock. Owner heartbeats always use the
     * server's clock.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clientClock(TimeSource clock) {
      this.clientClock = Objects.requireNonNull(clock, "clientClock");
      return this;
    }

    /**
     * Sets how many trace entries a new pool keeps (default 128); they travel in the pool's row, so
     * fewer make each transaction lighter.
     *
     * @param capacity from 1 to 10,000
     * @return this builder
     */
    public Builder traceCapacity(int capacity) {
      if (capacity < 1 || capacity > 10_000) {
        throw new IllegalArgumentException(
            "traceCapacity must be between 1 and 10000, was " + capacity);
      }
      this.traceCapacity = capacity;
      return this;
    }

    /** Builds the store; nothing is read or written until a limiter opens it. */
    public PostgresStore build() {
      return new PostgresStore(
          new PgSettings(
              dataSource,
              new Tables(schema, tablePrefix),
              pool,
              heartbeatTimeout,
              Optional.ofNullable(clientClock),
              traceCapacity));
    }
  }
}
