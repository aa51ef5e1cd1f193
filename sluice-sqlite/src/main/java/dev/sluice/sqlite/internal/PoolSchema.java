/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.FormatCheck;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables of a pool's {@code state.db} and the check of an existing one: its format id and its
 * normalized configuration. After a successful {@link #check}, {@link #format()} is the pool's.
 *
 * <p>Not thread-safe: one per open.
 */
final class PoolSchema implements StoreFile.Schema {
  static final String FILE = "state.db";

  private final PoolDirectory dir;
  private final LimiterConfig config;
  private final long now;
  private final int traceCapacity;
  private StateFormat format;

  PoolSchema(PoolDirectory dir, LimiterConfig config, long now, int traceCapacity) {
    this.dir = dir;
    this.config = config;
    this.now = now;
    this.traceCapacity = traceCapacity;
  }

  /** The format the checked file records. */
  StateFormat format() {
    return format;
  }

  @Override
  public void create(Connection db) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      st.execute(
          "CREATE TABLE sluice_pool (id INTEGER PRIMARY KEY CHECK (id = 1),"
              + " version INTEGER NOT NULL, fencing_reserved INTEGER NOT NULL,"
              + " state BLOB NOT NULL)");
      st.execute(
          "CREATE TABLE sluice_trace (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
              + " lease_id INTEGER NOT NULL, owner TEXT NOT NULL, active_weight INTEGER NOT NULL,"
              + " at INTEGER NOT NULL)");
    }
    try (PreparedStatement meta =
        db.prepareStatement("INSERT INTO sluice_meta (key, value) VALUES (?, ?)")) {
      meta.setString(1, "format");
      meta.setString(2, StateFormat.CURRENT.id());
      meta.executeUpdate();
      meta.setString(1, "config");
      meta.setString(2, config.normalizedForm());
      meta.executeUpdate();
    }
    PoolState fresh = PoolState.create(config, now, traceCapacity);
    try (PreparedStatement pool =
        db.prepareStatement(
            "INSERT INTO sluice_pool (id, version, fencing_reserved, state) VALUES (1, 1, 0, ?)")) {
      StateFormat.CURRENT.bind(pool, 1, fresh, 0, List.of());
      pool.executeUpdate();
    }
  }

  @Override
  public void check(Connection db) throws SQLException {
    StateFormat known =
        StateFormat.byId(
            FormatCheck.require(
                "pool " + dir + ": state.db", SqliteFiles.meta(db, "format"), StateFormat.ids()));
    LimiterConfig stored;
    try {
      stored = LimiterConfig.parse(SqliteFiles.meta(db, "config"));
    } catch (RuntimeException e) {
      throw new StoreFormatException(
          "pool " + dir + ": state.db holds an unreadable configuration: " + e.getMessage(), e);
    }
    if (!stored.equals(config)) {
      throw new ConfigMismatchException(dir.toString(), stored, config);
    }
    format = known;
  }
}
