/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.store;

import dev.sluice.StoreFormatException;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.internal.GateCodec;
import dev.sluice.gate.internal.GateState;
import dev.sluice.local.LocalCommit;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.spi.support.FormatCheck;
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
 * A gate home's {@code gate.db}: the format id, the settings fixed when the home was created, the
 * state document with a version every write bumps, and the event feed as rows. One connection, used
 * only under the home's gate lock.
 *
 * <p>Not thread-safe: {@link GateStore} serializes its use.
 */
final class GateDb implements AutoCloseable {
  static final String FORMAT = "sluice-gate/1";
  static final String FILE = "gate.db";

  /** SQLite's primary result codes for a damaged file. */
  private static final int SQLITE_CORRUPT = 11;

  private static final int SQLITE_NOTADB = 26;

  private final PoolDirectory dir;
  private final Connection db;
  private final GateSettings settings;
  private final PreparedStatement readState;
  private final PreparedStatement writeState;
  private final PreparedStatement insertEvent;
  private final PreparedStatement pruneEvents;
  private final PreparedStatement readEvents;
  private final PreparedStatement readRequestEvents;
  private final LocalCommit commits;
  private final PreparedStatement syncFull;
  private final PreparedStatement syncNormal;

  /** Whether the connection opened with synchronous=FULL, and whether it has it now. */
  private final boolean openedFull;

  private boolean full;

  /** The version of {@link #cached}, or -1 when nothing is cached. */
  private long cachedVersion = -1;

  private GateState cached;
  private String cachedText;

  private GateDb(PoolDirectory dir, Connection db, GateSettings settings, boolean fullSync)
      throws SQLException {
    this.dir = dir;
    this.openedFull = fullSync;
    this.full = fullSync;
    this.syncFull = db.prepareStatement("PRAGMA synchronous=FULL");
    this.syncNormal = db.prepareStatement("PRAGMA synchronous=NORMAL");
    this.db = db;
    this.settings = settings;
    this.readState = db.prepareStatement("SELECT version, state FROM gate_state WHERE id = 1");
    this.writeState =
        db.prepareStatement("UPDATE gate_state SET version = ?, state = ? WHERE id = 1");
    this.insertEvent =
        db.prepareStatement(
            "INSERT INTO gate_events (seq, at, type, pool, request_id, agent_id, detail)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)");
    this.pruneEvents = db.prepareStatement("DELETE FROM gate_events WHERE seq <= ? OR at <= ?");
    this.readEvents =
        db.prepareStatement(
            "SELECT seq, at, type, pool, request_id, agent_id, detail FROM gate_events"
                + " WHERE seq > ? ORDER BY seq LIMIT ?");
    this.readRequestEvents =
        db.prepareStatement(
            "SELECT seq, at, type, pool, request_id, agent_id, detail FROM gate_events"
                + " WHERE request_id = ? ORDER BY seq");
    this.commits = new LocalCommit(dir, db);
  }

  /**
   * Opens or creates the database; call under the gate.
   *
   * @param settingsIfNew stored if this call creates the home
   * @throws StoreFormatException if the file is not a gate of this format, or is corrupt
   */
  static GateDb open(PoolDirectory dir, GateSettings settingsIfNew, boolean fullSync) {
    Connection db = null;
    try {
      db = StoreFile.open(dir, FILE, "gate home " + dir, fullSync, schema(dir, settingsIfNew));
      return new GateDb(dir, db, check(db, dir), fullSync);
    } catch (SQLException | IOException e) {
      SqliteFiles.closeQuietly(db);
      throw unreadable(dir, e);
    }
  }

  /**
   * Refuses a {@code gate.db} this Sluice cannot use before anything else in the home is created;
   * only reads, needs no gate.
   *
   * @throws StoreFormatException if the file is not a gate of this format, or is corrupt
   */
  static void precheck(PoolDirectory dir) {
    try {
      StoreFile.precheck(dir, FILE, "gate home " + dir, schema(dir, null));
    } catch (SQLException | IOException e) {
      throw unreadable(dir, e);
    }
  }

  private static StoreFile.Schema schema(PoolDirectory dir, GateSettings settingsIfNew) {
    return new StoreFile.Schema() {
      @Override
      public void create(Connection db) throws SQLException {
        GateDb.create(db, settingsIfNew);
      }

      @Override
      public void check(Connection db) throws SQLException, IOException {
        GateDb.check(db, dir);
      }
    };
  }

  private static StoreFormatException unreadable(PoolDirectory dir, Exception e) {
    if (e instanceof SQLException sql && damage(sql)) {
      return damaged(dir, "gate.db is damaged (" + e.getMessage() + ")", e);
    }
    return new StoreFormatException(
        "gate home " + dir + ": gate.db is not a readable Sluice gate (" + e.getMessage() + ")", e);
  }

  /** Whether SQLite found the file damaged (corrupt pages, or not a database at all). */
  static boolean damage(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
  }

  /**
   * A refusal of a damaged {@code gate.db} that says what to do next: the gate cannot be repaired
   * in place, and what it held (the queue, who runs) can be given up at the cost of the jobs it
   * tracked, which run on outside the gate.
   */
  static StoreFormatException damaged(PoolDirectory dir, String what, Throwable cause) {
    Path home = dir.path();
    return new StoreFormatException(
        "gate home "
            + home
            + ": "
            + what
            + "; nothing was changed. Restore gate.db from a backup, or move it aside to start an"
            + " empty gate (the queue and the record of running jobs are lost; their commands run"
            + " on, outside the gate): mkdir "
            + home.resolve("damaged")
            + " && mv "
            + home.resolve("gate.db")
            + "* "
            + home.resolve("damaged")
            + "/",
        cause);
  }

  private static void create(Connection db, GateSettings settings) throws SQLException {
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE sluice_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      st.execute(
          "CREATE TABLE gate_state (id INTEGER PRIMARY KEY CHECK (id = 1),"
              + " version INTEGER NOT NULL, state TEXT NOT NULL)");
      st.execute(
          "CREATE TABLE gate_events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL,"
              + " type TEXT NOT NULL, pool TEXT NOT NULL, request_id TEXT NOT NULL,"
              + " agent_id TEXT NOT NULL, detail TEXT NOT NULL)");
      st.execute("CREATE INDEX gate_events_at ON gate_events (at)");
    }
    try (PreparedStatement meta =
        db.prepareStatement("INSERT INTO sluice_meta (key, value) VALUES (?, ?)")) {
      meta.setString(1, "format");
      meta.setString(2, FORMAT);
      meta.executeUpdate();
      meta.setString(1, "settings");
      meta.setString(2, GateCodec.writeSettings(settings));
      meta.executeUpdate();
    }
    try (PreparedStatement state =
        db.prepareStatement("INSERT INTO gate_state (id, version, state) VALUES (1, 1, ?)")) {
      state.setString(1, GateCodec.write(new GateState(settings)));
      state.executeUpdate();
    }
  }

  private static GateSettings check(Connection db, PoolDirectory dir)
      throws SQLException, IOException {
    FormatCheck.require(
        "gate home " + dir + ": gate.db", SqliteFiles.meta(db, "format"), List.of(FORMAT));
    String settings = SqliteFiles.meta(db, "settings");
    if (settings == null) {
      throw new IOException("no settings stored");
    }
    return GateCodec.readSettings(settings);
  }

  GateSettings settings() {
    return settings;
  }

  /**
   * Makes the next commits durable against a power loss ({@code synchronous=FULL}), or puts back
   * the mode the connection opened with; call under the gate, outside a transaction. Changes the
   * mode only when it differs, so an ordinary transaction runs no extra statement.
   */
  void fullSync(boolean durable) throws SQLException {
    boolean want = durable || openedFull;
    if (want != full) {
      (want ? syncFull : syncNormal).execute();
      full = want;
    }
  }

  /** The one commit protocol over this database's connection. */
  LocalCommit commits() {
    return commits;
  }

  /** Forgets the cached state, which a failed transaction may have changed. */
  void forget() {
    cached = null;
    cachedVersion = -1;
  }

  /** The current state, reusing the last one read or written when no other process wrote. */
  GateState load() throws SQLException, IOException {
    try (ResultSet rs = readState.executeQuery()) {
      if (!rs.next()) {
        throw new IOException("gate_state has no row");
      }
      long version = rs.getLong(1);
      if (version != cachedVersion) {
        String text = rs.getString(2);
        cached = decode(text, version);
        cachedText = text;
        cachedVersion = version;
      }
      return cached;
    }
  }

  private GateState decode(String text, long version) {
    try {
      return GateCodec.read(text, settings);
    } catch (IOException e) {
      // The parser's own words ("Unexpected character ('x' (code 120))...") stay in the cause.
      throw damaged(
          dir,
          "the gate's state in gate.db (table gate_state, version " + version + ") is damaged",
          e);
    }
  }

  /** The text the loaded state was read from or last written as. */
  String loadedText() {
    return cachedText;
  }

  long version() {
    return cachedVersion;
  }

  /** Writes the state as the next version with its new events, and prunes old events. */
  void write(GateState s, String text, List<GateEvent> fresh, long now) throws SQLException {
    long next = cachedVersion + 1;
    writeState.setLong(1, next);
    writeState.setString(2, text);
    writeState.executeUpdate();
    for (GateEvent e : fresh) {
      insertEvent.setLong(1, e.sequence());
      insertEvent.setLong(2, e.at().toEpochMilli());
      insertEvent.setString(3, e.type());
      insertEvent.setString(4, e.pool());
      insertEvent.setString(5, e.requestId());
      insertEvent.setString(6, e.agentId());
      insertEvent.setString(7, e.detail());
      insertEvent.addBatch();
    }
    if (!fresh.isEmpty()) {
      insertEvent.executeBatch();
      pruneEvents.setLong(1, s.eventsDroppedUpTo());
      pruneEvents.setLong(2, s.eventsExpiredAt(now));
      pruneEvents.executeUpdate();
    }
    cachedText = text;
    cachedVersion = next;
  }

  /** Events after {@code since}, oldest first. */
  List<GateEvent> events(long since, int limit) throws SQLException {
    readEvents.setLong(1, since);
    readEvents.setInt(2, limit);
    return events(readEvents);
  }

  /** The events of one request that are still kept, oldest first. */
  List<GateEvent> events(String requestId) throws SQLException {
    readRequestEvents.setString(1, requestId);
    return events(readRequestEvents);
  }

  private static List<GateEvent> events(PreparedStatement query) throws SQLException {
    List<GateEvent> out = new ArrayList<>();
    try (ResultSet rs = query.executeQuery()) {
      while (rs.next()) {
        out.add(
            new GateEvent(
                rs.getLong(1),
                Instant.ofEpochMilli(rs.getLong(2)),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7)));
      }
    }
    return out;
  }

  /** The connection, for the tables of other parts of the gate (submitted jobs). */
  Connection connection() {
    return db;
  }

  PoolDirectory dir() {
    return dir;
  }

  @Override
  public void close() {
    SqliteFiles.closeQuietly(db);
  }
}
