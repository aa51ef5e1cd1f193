/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.ConfigMismatchException;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.TraceEvent;
import dev.sluice.local.GateLock;
import dev.sluice.local.LocalCommit;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.support.PoolStateRefresh;
import dev.sluice.spi.support.StoredPoolState;
import java.io.IOException;
import java.nio.file.Files;
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
 * write bumps, the fencing reservation, and the state row (encoded as the pool's {@link
 * StateFormat} says). One connection, used only under the pool's gate.
 *
 * <p>Not thread-safe: the coordinator owns it.
 */
final class StateDb implements AutoCloseable {
  /** Trace entries written by one statement at most. */
  private static final int TRACE_CHUNK = 16;

  /** Trace entries a format-2 row holds at most before they move to the table. */
  private static final int TRACE_PENDING = 32;

  private static final java.util.Comparator<TraceEvent> BY_SEQUENCE =
      java.util.Comparator.comparingLong(TraceEvent::sequence);

  /** Fencing tokens reserved ahead, durably, so a token is never issued twice after power loss. */
  static final long FENCING_BLOCK = 4096;

  private final Path file;
  private final Connection db;
  private final boolean fullSync;
  private final StateFormat format;
  private final PreparedStatement readVersion;
  private final PreparedStatement readPool;
  private final PreparedStatement write;
  private final PreparedStatement readTrace;
  private final PreparedStatement[] insertTrace = new PreparedStatement[TRACE_CHUNK + 1];
  private final PreparedStatement trimTrace;
  private final PoolDirectory dir;
  private final LocalCommit commits;

  /** Trace entries from this sequence on are not in the trace table (but may be in the row). */
  private long traceWrittenUpTo;

  /** The trace was last trimmed when the next sequence was this. */
  private long traceTrimmedAt;

  /** The stored version and fencing reservation, as last read or written. */
  long version = -1;

  long fencingReserved;

  /**
   * The version of the last commit that pulsed, as last read or written, or {@link
   * StoredPoolState#UNKNOWN} if the pool's format does not keep it.
   */
  long lastPulse = StoredPoolState.UNKNOWN;

  private StateDb(PoolDirectory dir, Connection db, boolean fullSync, StateFormat format)
      throws SQLException {
    this.dir = dir;
    this.file = dir.file(PoolSchema.FILE);
    this.db = db;
    this.fullSync = fullSync;
    this.format = format;
    this.readVersion = db.prepareStatement("SELECT version, fencing_reserved FROM sluice_pool");
    this.readPool =
        db.prepareStatement(
            "SELECT 0, version, fencing_reserved, state, NULL, NULL, NULL FROM sluice_pool"
                + " UNION ALL SELECT 1, seq, kind, lease_id, owner, active_weight, at"
                + " FROM sluice_trace WHERE seq >= ?");
    this.write =
        db.prepareStatement("UPDATE sluice_pool SET version = ?, fencing_reserved = ?, state = ?");
    this.readTrace =
        db.prepareStatement(
            "SELECT seq, kind, lease_id, owner, active_weight, at FROM sluice_trace"
                + " ORDER BY seq");
    this.trimTrace = db.prepareStatement("DELETE FROM sluice_trace WHERE seq < ?");
    this.commits = new LocalCommit(dir, db);
  }

  /**
   * Opens or creates the database; call under the gate.
   *
   * @throws StoreFormatException if the file is not a Sluice pool of this format
   * @throws ConfigMismatchException if the pool has another configuration
   */
  static StateDb open(
      PoolDirectory dir, LimiterConfig config, long now, int traceCapacity, boolean fullSync) {
    PoolSchema schema = new PoolSchema(dir, config, now, traceCapacity);
    Connection db = null;
    try {
      db = StoreFile.open(dir, PoolSchema.FILE, "pool " + dir, fullSync, schema);
      return new StateDb(dir, db, fullSync, schema.format());
    } catch (SQLException | IOException e) {
      SqliteFiles.closeQuietly(db);
      throw unreadable(dir, e);
    }
  }

  /**
   * Refuses a {@code state.db} this pool cannot use before anything else in the directory is
   * created; only reads, needs no gate.
   *
   * @throws StoreFormatException if the file is not a Sluice pool of this format
   * @throws ConfigMismatchException if the pool has another configuration
   */
  static void precheck(PoolDirectory dir, LimiterConfig config) {
    try {
      StoreFile.precheck(dir, PoolSchema.FILE, "pool " + dir, new PoolSchema(dir, config, 0, 0));
    } catch (SQLException | IOException e) {
      throw unreadable(dir, e);
    }
  }

  private static StoreFormatException unreadable(PoolDirectory dir, Exception e) {
    return new StoreFormatException(
        "pool " + dir + ": state.db is not a readable Sluice pool (" + e.getMessage() + ")", e);
  }

  /** Reads the version (and reservation) alone; when a pool is attached. */
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
   * Reads the pool, in one statement: the version, the reservation, the state row and the trace
   * entries from {@code previous}'s next sequence on. If the version is {@code knownVersion}, the
   * state is {@code previous} as it is; otherwise {@code previous} (this JVM's last copy, or {@code
   * null}) is brought up to date in place and returned, or, if that fails, the state is rebuilt
   * from every stored row. Call under the gate; afterwards {@link #version} is the version read.
   *
   * <p>One statement, because each costs a round trip through the driver and SQLite's read lock
   * under the gate, and most transactions follow another process's commit.
   */
  PoolState read(LimiterConfig config, PoolState previous, long knownVersion)
      throws SQLException, IOException {
    long from = previous == null ? 0 : previous.trace().nextSequence();
    readPool.setLong(1, from);
    StoredPoolState stored = null;
    boolean found = false;
    List<TraceEvent> newer = new ArrayList<>();
    try (ResultSet rs = readPool.executeQuery()) {
      while (rs.next()) {
        if (rs.getInt(1) == 0) {
          found = true;
          version = rs.getLong(2);
          fencingReserved = rs.getLong(3);
          if (previous == null || version != knownVersion) {
            stored = format.read(rs, 4);
            lastPulse = stored.lastPulse();
          }
        } else {
          newer.add(traceEvent(rs, 2));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("malformed trace entry: " + e.getMessage(), e);
    }
    if (!found) {
      throw new SQLException("sluice_pool has no row");
    }
    if (stored == null) {
      return previous;
    }
    List<TraceEvent> pending = stored.pendingTrace();
    for (TraceEvent e : pending) {
      if (e.sequence() >= from) {
        newer.add(e);
      }
    }
    // The table's rows come before the row's pending entries; sorted anyway, as a rebuild must not
    // depend on the order a compound select yields.
    newer.sort(BY_SEQUENCE);
    PoolState s = null;
    if (previous != null && PoolStateRefresh.apply(previous, stored, newer)) {
      s = previous;
    } else if (previous == null) {
      s = stored.restore(config, newer);
    } else {
      List<TraceEvent> all = readTrace();
      all.addAll(pending);
      all.sort(BY_SEQUENCE);
      s = stored.restore(config, all);
    }
    traceWrittenUpTo = pending.isEmpty() ? s.trace().nextSequence() : pending.get(0).sequence();
    return s;
  }

  /** Every stored trace entry, oldest first. */
  private List<TraceEvent> readTrace() throws SQLException, IOException {
    List<TraceEvent> trace = new ArrayList<>();
    try (ResultSet rs = readTrace.executeQuery()) {
      while (rs.next()) {
        trace.add(traceEvent(rs, 1));
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("malformed trace entry: " + e.getMessage(), e);
    }
    return trace;
  }

  /** The trace entry in the six columns from {@code first} on. */
  private static TraceEvent traceEvent(ResultSet rs, int first) throws SQLException {
    return new TraceEvent(
        rs.getLong(first),
        TraceEvent.Kind.valueOf(rs.getString(first + 1)),
        rs.getLong(first + 2),
        rs.getString(first + 3),
        rs.getLong(first + 4),
        Instant.ofEpochMilli(rs.getLong(first + 5)));
  }

  /**
   * How many trace entries the row of a format that {@linkplain StateFormat#keepsPendingTrace keeps
   * them} holds before they move to the table: a commit that only rewrites the row it writes anyway
   * costs one page and one statement less than one that also inserts into the table.
   */
  private static int flushAt(int capacity) {
    return Math.max(1, Math.min(TRACE_PENDING, capacity / 2));
  }

  private void writeTrace(PoolState s, List<TraceEvent> fresh) throws SQLException {
    // One statement for all the entries (in chunks): each statement is a round trip through the
    // driver and a b-tree descent, under the gate.
    for (int start = 0; start < fresh.size(); start += TRACE_CHUNK) {
      int n = Math.min(TRACE_CHUNK, fresh.size() - start);
      PreparedStatement insert = insertTrace(n);
      int p = 1;
      for (TraceEvent e : fresh.subList(start, start + n)) {
        insert.setLong(p++, e.sequence());
        insert.setString(p++, e.kind().name());
        insert.setLong(p++, e.leaseId());
        insert.setString(p++, e.owner());
        insert.setLong(p++, e.activeWeight());
        insert.setLong(p++, e.at().toEpochMilli());
      }
      insert.executeUpdate();
    }
    // Trimmed now and then, not on every commit: a reader keeps only the newest entries anyway.
    long next = s.trace().nextSequence();
    if (next - traceTrimmedAt >= Math.max(32, s.trace().capacity() / 2)) {
      trimTrace.setLong(1, next - s.trace().capacity());
      trimTrace.executeUpdate();
      traceTrimmedAt = next;
    }
  }

  private PreparedStatement insertTrace(int rows) throws SQLException {
    PreparedStatement insert = insertTrace[rows];
    if (insert == null) {
      StringBuilder sql =
          new StringBuilder(
              "INSERT OR REPLACE INTO sluice_trace (seq, kind, lease_id, owner, active_weight, at)"
                  + " VALUES ");
      for (int i = 0; i < rows; i++) {
        sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?)");
      }
      insert = db.prepareStatement(sql.toString());
      insertTrace[rows] = insert;
    }
    return insert;
  }

  /**
   * Writes the state as {@code nextVersion} in one transaction of the one commit protocol ({@link
   * LocalCommit}); call under the gate.
   *
   * @param hold the caller's hold of the gate
   * @param durable commit with {@code synchronous=FULL} even if the pool runs with {@code NORMAL}:
   *     used when the write moves the fencing reservation
   * @param pulsedVersion the version of the last commit that pulsed, this one included
   * @param pulse the pulse to write before the commit, or {@code null} if no other process has
   *     anything to learn from it
   */
  void write(
      GateLock.Hold hold,
      PoolState s,
      long nextVersion,
      long reserved,
      boolean durable,
      long pulsedVersion,
      String pulse)
      throws SQLException, IOException {
    List<TraceEvent> unflushed = s.trace().entriesFrom(traceWrittenUpTo);
    boolean flush =
        !format.keepsPendingTrace() || unflushed.size() >= flushAt(s.trace().capacity());
    boolean raise = durable && !fullSync;
    if (raise) {
      pragma("PRAGMA synchronous=FULL");
    }
    try {
      commits.run(
          hold,
          () -> {
            write.setLong(1, nextVersion);
            write.setLong(2, reserved);
            format.bind(write, 3, s, pulsedVersion, flush ? List.of() : unflushed);
            write.executeUpdate();
            if (flush) {
              writeTrace(s, unflushed);
            }
            if (pulse != null) {
              return LocalCommit.Written.pulsing(pulse);
            }
            if (!Files.isDirectory(dir.notifyDir())) {
              // A pool without its pulse directory cannot wake anyone: fail now, not at the
              // first commit that needs a pulse.
              throw new IOException("notify directory " + dir.notifyDir() + " is missing");
            }
            return LocalCommit.Written.QUIETLY;
          });
    } finally {
      if (raise) {
        pragma("PRAGMA synchronous=NORMAL");
      }
    }
    version = nextVersion;
    fencingReserved = reserved;
    if (lastPulse != StoredPoolState.UNKNOWN) {
      lastPulse = pulsedVersion;
    }
    if (flush) {
      traceWrittenUpTo = s.trace().nextSequence();
    }
  }

  private void pragma(String sql) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute(sql);
    }
  }

  Path file() {
    return file;
  }

  @Override
  public void close() {
    SqliteFiles.closeQuietly(db);
  }
}
