/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The owners of one {@link Listener}: each holds a session-level advisory lock on the listener's
 * connection for its lifetime, and its row's {@code expires_at} is renewed by the server's clock at
 * a third of its heartbeat timeout. A renewal that finds an owner's row gone learns that another
 * JVM declared the owner dead (its heartbeat lapsed while this JVM was cut off or paused) and
 * reclaimed what it held; the owner is then told it is lost.
 *
 * <p>Each renewal also has every {@link Subscriber} look for dead owners of the stores this JVM
 * uses, whose locks are free or whose heartbeats lapsed (a process killed without a word), and wake
 * this JVM's owners there, so that a waiter behind a dead holder learns of it within a third of a
 * heartbeat timeout even when nothing else happens on the store.
 *
 * <p>Not thread-safe: confined to the listener thread.
 */
final class Heartbeats {
  private static final Log LOG = Logs.of(Heartbeats.class);

  /**
   * An owner of this JVM.
   *
   * @param id its id
   * @param key its advisory lock key
   * @param home where it is registered
   * @param timeoutMillis its heartbeat timeout
   */
  record Owner(String id, long key, OwnerHome home, long timeoutMillis) {}

  private final Map<String, Subscriber> channels;
  private final Map<String, Owner> owners = new HashMap<>();
  private long nextBeatNanos;

  /**
   * @param channels what this JVM listens for, by channel
   */
  Heartbeats(Map<String, Subscriber> channels) {
    this.channels = channels;
  }

  /** Takes a new owner's lock and registers its row; the owner is then renewed with the rest. */
  void register(Connection c, Owner o) throws SQLException {
    long sent = System.nanoTime();
    if (!bool(c, "SELECT pg_try_advisory_lock(?)", o.key())) {
      throw new SQLException("owner " + o.id() + " is already locked by another session");
    }
    try {
      o.home().insertOwner(c, o.id(), o.key(), o.timeoutMillis());
    } catch (SQLException e) {
      bool(c, "SELECT pg_advisory_unlock(?)", o.key());
      throw e;
    }
    boolean first = owners.isEmpty();
    owners.put(o.id(), o);
    o.home().renewed(o.id(), sent + o.timeoutMillis() * 1_000_000L);
    if (first) {
      // The first owner's beat is due at once: it sweeps the owners that died while none of this
      // JVM's was registered.
      nextBeatNanos = System.nanoTime();
    } else {
      long next = System.nanoTime() + intervalNanos(o.timeoutMillis());
      nextBeatNanos = next - nextBeatNanos < 0 ? next : nextBeatNanos;
    }
  }

  /**
   * Ends an owner: deletes its row if it retired (nothing of it is left to reclaim), then releases
   * its lock, so that another JVM reclaims what it still holds.
   */
  void drop(Connection c, String id, boolean deleteRow) throws SQLException {
    Owner o = owners.remove(id);
    if (o == null) {
      return;
    }
    if (deleteRow) {
      try (PreparedStatement st =
          c.prepareStatement("DELETE FROM " + o.home().ownersTable() + " WHERE owner_id = ?")) {
        st.setString(1, id);
        st.executeUpdate();
      }
    }
    bool(c, "SELECT pg_advisory_unlock(?)", o.key());
  }

  /**
   * Takes every owner's lock again on a new connection. An owner whose lock is taken by someone
   * else, or whose row is gone, was reclaimed meanwhile: it is told it is lost. The lock is taken
   * before the row is read, in two statements, so a reclaim that committed before the lock was free
   * is seen.
   */
  void retake(Connection c) throws SQLException {
    for (Owner o : List.copyOf(owners.values())) {
      boolean locked = lockWaiting(c, o.key());
      boolean registered = locked && o.home().relocked(c, o.id());
      if (!registered) {
        lost(c, o, locked);
      }
    }
    nextBeatNanos = System.nanoTime();
  }

  /**
   * Takes an owner's lock again, waiting for it as long as the connection's lock timeout: the
   * terminated backend that held it may not have exited yet, and a reclaim in another JVM holds it
   * until it commits. A lock still held after that belongs to someone else: the owner is lost.
   */
  private static boolean lockWaiting(Connection c, long key) throws SQLException {
    try {
      bool(c, "SELECT pg_advisory_lock(?) IS NULL", key);
      return true;
    } catch (SQLException e) {
      if ("55P03".equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  /** The shortest heartbeat timeout of this JVM's owners, or 0 if it has none. */
  long shortestTimeoutMillis() {
    long shortest = 0;
    for (Owner o : owners.values()) {
      shortest = shortest == 0 ? o.timeoutMillis() : Math.min(shortest, o.timeoutMillis());
    }
    return shortest;
  }

  /** Milliseconds until the next renewal is due, or 0 for none (wait for notifications only). */
  long millisToNextBeat() {
    if (owners.isEmpty()) {
      return 0;
    }
    return Math.max(1, (nextBeatNanos - System.nanoTime()) / 1_000_000);
  }

  /** Renews every owner if a renewal is due, and looks for dead owners of this JVM's pools. */
  void beatIfDue(Connection c) throws SQLException {
    if (owners.isEmpty() || System.nanoTime() - nextBeatNanos < 0) {
      return;
    }
    Map<String, List<Owner>> byTable = new HashMap<>();
    long shortest = Long.MAX_VALUE;
    for (Owner o : owners.values()) {
      byTable.computeIfAbsent(o.home().ownersTable(), k -> new ArrayList<>()).add(o);
      shortest = Math.min(shortest, o.timeoutMillis());
    }
    for (Map.Entry<String, List<Owner>> e : byTable.entrySet()) {
      long sent = System.nanoTime();
      Set<String> renewed = renew(c, e.getKey(), e.getValue());
      for (Owner o : e.getValue()) {
        if (renewed.contains(o.id())) {
          o.home().renewed(o.id(), sent + o.timeoutMillis() * 1_000_000L);
        } else {
          lost(c, o, true);
        }
      }
    }
    Set<String> local = Set.copyOf(owners.keySet());
    for (Subscriber s : channels.values()) {
      s.probeDeadOwners(c, local);
    }
    nextBeatNanos = System.nanoTime() + intervalNanos(shortest);
  }

  private static long intervalNanos(long timeoutMillis) {
    return timeoutMillis * 1_000_000L / 3;
  }

  private Set<String> renew(Connection c, String table, List<Owner> list) throws SQLException {
    String[] ids = new String[list.size()];
    Long[] timeouts = new Long[list.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = list.get(i).id();
      timeouts[i] = list.get(i).timeoutMillis();
    }
    Set<String> renewed = new HashSet<>();
    try (PreparedStatement st =
        c.prepareStatement(
            "UPDATE "
                + table
                + " o SET expires_at = clock_timestamp() + u.ms * interval '1 millisecond'"
                + " FROM unnest(?::text[], ?::bigint[]) AS u(id, ms)"
                + " WHERE o.owner_id = u.id RETURNING o.owner_id")) {
      st.setArray(1, c.createArrayOf("text", ids));
      st.setArray(2, c.createArrayOf("bigint", timeouts));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          renewed.add(rs.getString(1));
        }
      }
    }
    return renewed;
  }

  private void lost(Connection c, Owner o, boolean locked) throws SQLException {
    LOG.warn(
        "owner {} is lost: its heartbeat lapsed or another process reclaimed it; what it held is"
            + " gone and it admits nothing until it registers again",
        o.id());
    owners.remove(o.id());
    if (locked) {
      bool(c, "SELECT pg_advisory_unlock(?)", o.key());
    }
    o.home().ownerLost(o.id());
  }

  private static boolean bool(Connection c, String sql, long key) throws SQLException {
    try (PreparedStatement st = c.prepareStatement(sql)) {
      st.setLong(1, key);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }
}
