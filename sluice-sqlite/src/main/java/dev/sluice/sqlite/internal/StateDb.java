/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.TraceEvent;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.spi.PoolState;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A pool's {@code state.db}: the format id, the normalized configuration, a version that every
 * write bumps, the fencing reservation, and the state document. One connection, used only under the
 * pool's gate.
 *
 * <p>Not thread-safe: the coordinator owns it.
 */
final class StateDb implements AutoCloseable {
  static final String FORMAT = "sluice-limiter-pool/1";

  /** Fencing tokens reserved ahead, durably, so a token is never issued twice after power loss. */
  static final long FENCING_BLOCK = 4096;

  private final Path file;
  private final Connection db;
  private final boolean fullSync;
  private final PreparedStatement readVersion;
  private final PreparedStatement readState;
  private final PreparedStatement write;
  private final PreparedStatement readTrace;
  private final PreparedStatement insertTrace;
  private final PreparedStatement trimTrace;

  /** Trace entries from this sequence on are not in the database yet. */
  private long traceWrittenUpTo;

  /** The trace was last trimmed when the next sequence was this. */
  private long traceTrimmedAt;

  /** The stored version and fencing reservation, as last read or written. */
  long version = -1;

  long fencingReserved;

  private StateDb(Path file, Connection db, boolean fullSync) throws SQLException {
    this.file = file;
    this.db = db;
    this.fullSync = fullSync;
    this.readVersion = db.prepareStatement("SELECT version, fencing_reserved FROM sluice_pool");
    this.readState = db.prepareStatement("SELECT state FROM sluice_pool");
    this.write =
        db.prepareStatement("UPDATE sluice_pool SET version = ?, fencing_reserved = ?, state = ?");
    this.readTrace =
        db.prepareStatement(
            "SELECT seq, kind, lease_id, owner, active_weight, at FROM sluice_trace"
                + " WHERE seq >= ? ORDER BY seq");
    this.insertTrace =
        db.prepareStatement(
            "INSERT OR REPLACE INTO sluice_trace (seq, kind, lease_id, owner, active_weight, at)"
                + " VALUES (?, ?, ?, ?, ?, ?)");
    this.trimTrace = db.prepareStatement("DELETE FROM sluice_trace WHERE seq < ?");
  }

  /**
   * Opens or creates the database; call under the gate.
   *
   * @throws StoreFormatException if the file is not a Sluice pool of this format
   * @throws ConfigMismatchException if the pool has another configuration
   */
  static StateDb open(
      PoolDirectory dir, LimiterConfig config, long now, int traceCapacity, boolean fullSync) {
    Path file = dir.file("state.db");
    Connection db = null;
    try {
      db = SqliteFiles.open(dir, "state.db", fullSync);
      // Transactions are explicit, so the synchronous level can change between them.
      try (Statement st = db.createStatement()) {
        st.execute("BEGIN IMMEDIATE");
        try {
          if (!SqliteFiles.hasSchema(db)) {
            create(db, config, now, traceCapacity);
          }
          checkFormat(db, dir, config);
          st.execute("COMMIT");
        } catch (SQLException | RuntimeException e) {
          st.execute("ROLLBACK");
          throw e;
        }
      }
      return new StateDb(file, db, fullSync);
    } catch (SQLException | IOException e) {
      SqliteFiles.closeQuietly(db);
      throw new StoreFormatException(
          "pool " + dir + ": state.db is not a readable Sluice pool (" + e.getMessage() + ")", e);
    } catch (RuntimeException e) {
      SqliteFiles.closeQuietly(db);
      throw e;
    }
  }

  private static void create(Connection db, LimiterConfig config, long now, int traceCapacity)
      throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      st.execute(
          "CREATE TABLE sluice_pool (id INTEGER PRIMARY KEY CHECK (id = 1),"
              + " version INTEGER NOT NULL, fencing_reserved INTEGER NOT NULL,"
              + " state TEXT NOT NULL)");
      st.execute(
          "CREATE TABLE sluice_trace (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
              + " lease_id INTEGER NOT NULL, owner TEXT NOT NULL, active_weight INTEGER NOT NULL,"
              + " at INTEGER NOT NULL)");
    }
    try (PreparedStatement meta =
        db.prepareStatement("INSERT INTO sluice_meta (key, value) VALUES (?, ?)")) {
      meta.setString(1, "format");
      meta.setString(2, FORMAT);
      meta.executeUpdate();
      meta.setString(1, "config");
      meta.setString(2, config.normalizedForm());
      meta.executeUpdate();
    }
    PoolState fresh = PoolState.create(config, now, traceCapacity);
    try (PreparedStatement pool =
        db.prepareStatement(
            "INSERT INTO sluice_pool (id, version, fencing_reserved, state) VALUES (1, 1, 0, ?)")) {
      pool.setString(1, StateCodec.write(fresh));
      pool.executeUpdate();
    }
  }

  private static void checkFormat(Connection db, PoolDirectory dir, LimiterConfig config)
      throws SQLException {
    String format = SqliteFiles.meta(db, "format");
    if (!FORMAT.equals(format)) {
      throw new StoreFormatException(
          "pool "
              + dir
              + ": state.db has format "
              + (format == null ? "none" : "'" + format + "'")
              + ", this Sluice reads '"
              + FORMAT
              + "'; nothing was changed");
    }
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
  }

  /** Reads the version (and reservation); the caller reloads the state if it changed. */
  long readVersion() throws SQLException {
    try (ResultSet rs = readVersion.executeQuery()) {
      if (!rs.next()) {
        throw new SQLException("sluice_pool has no row");
      }
      version = rs.getLong(1);
      fencingReserved = rs.getLong(2);
      return version;
    }
  }

  /**
   * Reads the state. The trace is read incrementally: the entries of {@code previous} (this JVM's
   * last copy, or {@code null}) and the rows written since.
   */
  PoolState readState(LimiterConfig config, PoolState previous) throws SQLException, IOException {
    String text;
    try (ResultSet rs = readState.executeQuery()) {
      if (!rs.next()) {
        throw new SQLException("sluice_pool has no row");
      }
      text = rs.getString(1);
    }
    List<TraceEvent> trace = new ArrayList<>();
    long from = 0;
    if (previous != null) {
      trace.addAll(previous.trace().entries());
      from = previous.trace().nextSequence();
    }
    readTrace.setLong(1, from);
    try (ResultSet rs = readTrace.executeQuery()) {
      while (rs.next()) {
        trace.add(
            new TraceEvent(
                rs.getLong(1),
                TraceEvent.Kind.valueOf(rs.getString(2)),
                rs.getLong(3),
                rs.getString(4),
                rs.getLong(5),
                Instant.ofEpochMilli(rs.getLong(6))));
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("malformed trace entry: " + e.getMessage(), e);
    }
    PoolState s = StateCodec.read(text, config, trace);
    traceWrittenUpTo = s.trace().nextSequence();
    return s;
  }

  private void writeTrace(PoolState s) throws SQLException {
    List<TraceEvent> fresh = s.trace().entriesFrom(traceWrittenUpTo);
    for (TraceEvent e : fresh) {
      insertTrace.setLong(1, e.sequence());
      insertTrace.setString(2, e.kind().name());
      insertTrace.setLong(3, e.leaseId());
      insertTrace.setString(4, e.owner());
      insertTrace.setLong(5, e.activeWeight());
      insertTrace.setLong(6, e.at().toEpochMilli());
      insertTrace.executeUpdate();
    }
    // Trimmed now and then, not on every commit: a reader keeps only the newest entries anyway.
    long next = s.trace().nextSequence();
    if (next - traceTrimmedAt >= Math.max(32, s.trace().capacity() / 2)) {
      trimTrace.setLong(1, next - s.trace().capacity());
      trimTrace.executeUpdate();
      traceTrimmedAt = next;
    }
  }

  /** Work done inside the write transaction, just before the commit. */
  interface BeforeCommit {
    void run() throws IOException;
  }

  /**
   * Writes the state as {@code nextVersion} in one transaction; call under the gate.
   *
   * @param durable commit with {@code synchronous=FULL} even if the pool runs with {@code NORMAL}:
   *     used when the write moves the fencing reservation
   * @param beforeCommit run after the write, before the commit (the pulse)
   */
  void write(
      PoolState s, long nextVersion, long reserved, boolean durable, BeforeCommit beforeCommit)
      throws SQLException, IOException {
    String encoded = StateCodec.write(s);
    boolean raise = durable && !fullSync;
    try (Statement st = db.createStatement()) {
      if (raise) {
        st.execute("PRAGMA synchronous=FULL");
      }
      try {
        st.execute("BEGIN IMMEDIATE");
        try {
          write.setLong(1, nextVersion);
          write.setLong(2, reserved);
          write.setString(3, encoded);
          write.executeUpdate();
          writeTrace(s);
          beforeCommit.run();
          st.execute("COMMIT");
        } catch (SQLException | IOException | RuntimeException e) {
          st.execute("ROLLBACK");
          throw e;
        }
      } finally {
        if (raise) {
          st.execute("PRAGMA synchronous=NORMAL");
        }
      }
    }
    version = nextVersion;
    fencingReserved = reserved;
    traceWrittenUpTo = s.trace().nextSequence();
  }

  Path file() {
    return file;
  }

  @Override
  public void close() {
    SqliteFiles.closeQuietly(db);
  }
}
