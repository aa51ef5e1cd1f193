/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The limiter's tables and their version, kept by the library in its own schema-version table: a
 * store finds its tables at the version this Sluice writes, migrates an older version forward, or
 * refuses a newer one with a {@link dev.sluice.StoreFormatException} that names both versions. All
 * of it runs in the caller's transaction under a transaction-scoped advisory lock, so two JVMs that
 * open a store at once create it once, and a refusal, rolled back, changes nothing.
 *
 * <p>Thread-safe (stateless).
 */
final class LimiterSchema {
  /** The component this Sluice's limiter tables are versioned as. */
  static final String COMPONENT = "limiter";

  /** One step from a version to the next. */
  @FunctionalInterface
  private interface Step {
    void apply(Statement st, Tables t) throws SQLException;
  }

  /** Step {@code i} migrates version {@code i} to {@code i + 1}; version 0 is "no tables yet". */
  private static final List<Step> STEPS =
      List.of(
          LimiterSchema::createVersionOne,
          LimiterSchema::addLockIncarnation,
          LimiterSchema::addWatching);

  /** The version this Sluice reads and writes. */
  static final int CURRENT = STEPS.size();

  private LimiterSchema() {}

  /**
   * Brings the tables to {@link #CURRENT} inside the caller's transaction, which must not
   * auto-commit; a refusal leaves it for the caller to roll back.
   *
   * @throws dev.sluice.StoreFormatException if the tables are of a newer or unknown version
   */
  static void ensure(Connection c, Tables t) throws SQLException {
    int found =
        SchemaVersions.lockAndRead(
            c, t, COMPONENT, "the Sluice limiter tables " + t.describe(), CURRENT);
    if (found == CURRENT) {
      return;
    }
    try (Statement st = c.createStatement()) {
      SchemaVersions.createTable(st, t);
      for (int v = found; v < CURRENT; v++) {
        STEPS.get(v).apply(st, t);
      }
    }
    SchemaVersions.record(c, t, COMPONENT, found, CURRENT);
  }

  private static void createVersionOne(Statement st, Tables t) throws SQLException {
    st.execute(
        "CREATE TABLE IF NOT EXISTS "
            + t.pools()
            + " (pool text PRIMARY KEY, format text NOT NULL, config text NOT NULL,"
            + " version bigint NOT NULL, state bytea NOT NULL)");
    st.execute(
        "CREATE TABLE IF NOT EXISTS "
            + t.owners()
            + " (owner_id text PRIMARY KEY, pool text NOT NULL, lock_key bigint NOT NULL,"
            + " expires_at timestamptz NOT NULL)");
    st.execute(
        "CREATE INDEX IF NOT EXISTS " + t.ownersPoolIndex() + " ON " + t.owners() + " (pool)");
  }

  /**
   * Version 2: each owner records the server start ({@code pg_postmaster_start_time()}) under which
   * it took its advisory lock. A restart drops every lock at once, so a free lock proves an owner
   * dead only if the owner took it since the current start; until its JVM reconnects and takes it
   * again, its heartbeat alone decides. Rows of version 1 have none, and their locks count as
   * before.
   */
  private static void addLockIncarnation(Statement st, Tables t) throws SQLException {
    st.execute("ALTER TABLE " + t.owners() + " ADD COLUMN IF NOT EXISTS locked_in timestamptz");
  }

  /**
   * Version 3: an owner may watch the pool ({@code PoolSession.watch}); every commit that changes
   * the pool then names it in its NOTIFY. Only watchers' rows are ever true, so commits of pools
   * nobody watches notify as before.
   */
  private static void addWatching(Statement st, Tables t) throws SQLException {
    st.execute(
        "ALTER TABLE "
            + t.owners()
            + " ADD COLUMN IF NOT EXISTS watching boolean NOT NULL DEFAULT false");
  }
}
