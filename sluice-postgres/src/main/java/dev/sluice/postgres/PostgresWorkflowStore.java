/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import dev.sluice.TimeSource;
import dev.sluice.postgres.internal.PgWorkflowSession;
import dev.sluice.postgres.internal.PgWorkflowSettings;
import dev.sluice.postgres.internal.SettingChecks;
import dev.sluice.postgres.internal.Tables;
import dev.sluice.workflow.spi.WorkflowSession;
import dev.sluice.workflow.spi.WorkflowStore;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A workflow store in a PostgreSQL database, shared by every runtime of every process on every
 * machine that opens the same schema and table prefix: executions, their recorded steps, timers,
 * and durable stores with their waiters. Moving from SQLite changes only the store given to {@link
 * dev.sluice.workflow.WorkflowRuntime.Builder#store}.
 *
 * <pre>{@code
 * try (WorkflowRuntime runtime = WorkflowRuntime.builder()
 *     .store(PostgresWorkflowStore.of(dataSource))
 *     .register(checkout)
 *     .build()) {
 *   runtime.start();
 * }
 * }</pre>
 *
 * <p><b>Transactions.</b> Each runtime batches its units of work; a batch is one transaction that
 * first takes the store's transaction-scoped advisory lock. Claims and the units of one running
 * execution (its step records, its suspension, its completion) take it shared, so those of several
 * JVMs run at once: a unit of one execution locks that execution's row first ({@code FOR UPDATE}),
 * so units of one execution take turns, and a claim takes the oldest eligible queued executions it
 * can lock with {@code ORDER BY … LIMIT … FOR UPDATE SKIP LOCKED} and writes each with an epoch one
 * above its last: every later write checked against an earlier claim of it is refused. Every other
 * unit (submits, cancels, durable stores, firing timers, take-overs), and a claim that finds such
 * work to do, takes the lock exclusively and runs alone, seeing every earlier unit's writes. A
 * batch's transaction that sits idle for a third of the {@linkplain Builder#heartbeatTimeout
 * heartbeat timeout} (its JVM stopped or paused) is ended by the server, so it cannot hold the lock
 * for the other JVMs; its units fail with nothing written.
 *
 * <p><b>Time.</b> The database's {@code clock_timestamp()}, read in the batch's transaction, is the
 * store's time (timers, deadlines, retention), unless a {@linkplain Builder#clientClock client
 * clock} is set for tests.
 *
 * <p><b>Owners and take-overs.</b> Each runtime registers an owner that holds a session-level
 * advisory lock on this JVM's dedicated connection (shared with {@link PostgresStore}) and renews a
 * heartbeat by the server's clock at a third of the {@linkplain Builder#heartbeatTimeout timeout}.
 * A claim of an owner whose lock is free (its process died, its connection was cut) or whose
 * heartbeat lapsed is taken over; runtimes learn of such a death at their next unit of work, or at
 * their JVM's next heartbeat. An owner declared dead while its JVM lives goes on as a new owner.
 *
 * <p><b>Wakes.</b> A commit that wrote NOTIFYs the store's channel; idle runtimes sleep until such
 * a notification, their next timer or a dead owner's discovery. Nothing polls.
 *
 * <p><b>Schema.</b> The tables ({@code <prefix>wf_*}, {@code <prefix>workflow_meta}, {@code
 * <prefix>workflow_owners}) are created and versioned by the library in the schema-version table it
 * shares with the limiter's tables: an older version is migrated forward in one transaction, a
 * newer one is refused with a {@link dev.sluice.StoreFormatException} naming both versions, and
 * nothing is changed.
 *
 * <p><b>Failures.</b> A lost connection or a server restart fails the units in flight with {@link
 * dev.sluice.BackendFailureException}; the next unit takes a new connection, so the store recovers
 * by itself when the server is back.
 *
 * <p>Immutable and thread-safe. {@link #open()} blocks on the database.
 */
public final class PostgresWorkflowStore implements WorkflowStore {
  private final PgWorkflowSettings settings;

  private PostgresWorkflowStore(PgWorkflowSettings settings) {
    this.settings = settings;
  }

  /**
   * The workflow store in the default schema and table prefix, on the server's clock.
   *
   * @param dataSource where connections come from; one of them is kept for wakes and liveness
   * @return the store
   */
  public static PostgresWorkflowStore of(DataSource dataSource) {
    return builder(dataSource).build();
  }

  /**
   * A builder for the workflow store.
   *
   * @param dataSource where connections come from; one of them is kept for wakes and liveness
   * @return the builder
   */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  @Override
  public String name() {
    return settings.name();
  }

  @Override
  public TimeSource clock() {
    return settings.clock();
  }

  @Override
  public WorkflowSession open() {
    return PgWorkflowSession.open(settings);
  }

  @Override
  public String toString() {
    return "PostgresWorkflowStore[" + settings.describe() + "]";
  }

  /**
   * Builds a {@link PostgresWorkflowStore}; every setting is checked when it is set, naming the
   * setting, the value and what is allowed, exactly as {@link PostgresStore.Builder} does.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private String schema = PostgresStore.DEFAULT_SCHEMA;
    private String tablePrefix = PostgresStore.DEFAULT_TABLE_PREFIX;
    private Duration heartbeatTimeout = PostgresStore.DEFAULT_HEARTBEAT_TIMEOUT;
    private TimeSource clientClock;
    private int stepConnections = 1;

    private Builder(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
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
     * Sets how long an owner's heartbeat lasts (default 30 s): a runtime that has not renewed it
     * for this long by the server's clock counts as dead, and its claims are taken over. It is
     * renewed at a third of the timeout.
     *
     * @param timeout from 1 second to 1 hour
     * @return this builder
     */
    public Builder heartbeatTimeout(Duration timeout) {
      this.heartbeatTimeout = SettingChecks.heartbeatTimeout(timeout);
      return this;
    }

    /**
     * Keeps the store's time (timers, deadlines, retention) on {@code clock} instead of the
     * server's {@code clock_timestamp()}: for tests on a manual clock within one JVM. Every process
     * on a store must share one time, so production code leaves the server's clock. Owner
     * heartbeats always use the server's clock.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clientClock(TimeSource clock) {
      this.clientClock = Objects.requireNonNull(clock, "clientClock");
      return this;
    }

    /**
     * Sets how many connections each runtime on the store keeps for its claims and the writes of
     * its running executions (default 1), which run beside those of other connections and JVMs:
     * more let a runtime with many workers commit several batches at once. Each runtime also keeps
     * one connection for the units that run alone (submits, cancels, durable stores, timers), and
     * the JVM one for wakes and liveness and, for a moment now and then, one to tell other JVMs of
     * progress, so the data source must allow {@code connections + 2} per runtime and one more.
     *
     * @param connections from 1 to 16
     * @return this builder
     */
    public Builder stepConnections(int connections) {
      this.stepConnections = SettingChecks.stepConnections(connections);
      return this;
    }

    /** Builds the store; nothing is read or written until a runtime opens it. */
    public PostgresWorkflowStore build() {
      return new PostgresWorkflowStore(
          new PgWorkflowSettings(
              dataSource,
              new Tables(schema, tablePrefix),
              heartbeatTimeout,
              Optional.ofNullable(clientClock),
              stepConnections));
    }
  }
}
