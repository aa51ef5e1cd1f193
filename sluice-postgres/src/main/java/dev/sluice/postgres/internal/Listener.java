/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * This JVM's one dedicated connection to the database behind a data source, and the thread that
 * owns it. On it every pool and workflow store this JVM uses LISTENs for the NOTIFYs of other JVMs'
 * commits, and every owner of this JVM holds its session-level advisory lock, which the server
 * drops the moment the connection dies; its heartbeats renew the owners' rows by the server's
 * clock.
 *
 * <p>The thread blocks in {@link PGConnection#getNotifications(int)} until a notification arrives
 * or the next heartbeat is due; never in a polling loop. Work for the connection (LISTEN, taking
 * and releasing owner locks) is queued and the thread is woken by a NOTIFY on its own control
 * channel. After the connection is lost it reconnects (100 ms doubling to 5 s between attempts),
 * listens again, takes its owners' locks again (an owner whose lock or row is gone by then was
 * reclaimed and is told so), and wakes every owner of this JVM to read its pool again in full.
 *
 * <p>Thread-safe.
 */
final class Listener {
  private static final Log LOG = Logs.of(Listener.class);

  private static final Map<DataSource, Listener> OPEN = new IdentityHashMap<>();
  private static final long FIRST_RETRY_MILLIS = 100;
  private static final long LAST_RETRY_MILLIS = 5_000;
  private static final long RETAKE_TIMEOUT_MILLIS = 10_000;

  private final DataSource dataSource;
  private final String controlChannel = "sluice_ctl_" + OwnerIds.random();
  private final ListenerWork work = new ListenerWork();
  private final Map<String, Subscriber> channels = new ConcurrentHashMap<>();
  private final Heartbeats heartbeats;
  private final DeathWatch deathWatch;
  private final Thread thread;
  private int users;
  private volatile boolean stopping;
  private volatile boolean connected;

  // Written by the listener thread; read by a release that must cut the thread's wait short.
  private volatile Connection connection;
  // Confined to the listener thread.
  private PGConnection pg;
  private boolean everConnected;
  // Whether the last attempt failed: an outage is logged once as it starts and once as it ends.
  private boolean down;

  private Listener(DataSource dataSource) {
    this.dataSource = dataSource;
    this.heartbeats = new Heartbeats(channels);
    this.deathWatch = new DeathWatch(dataSource);
    this.thread = new Thread(this::loop, "sluice-postgres-listener");
    thread.setDaemon(true);
    thread.start();
  }

  /** Joins the listener of {@code dataSource}, starting it if needed. */
  static Listener acquire(DataSource dataSource) {
    synchronized (OPEN) {
      Listener l = OPEN.computeIfAbsent(dataSource, Listener::new);
      l.users++;
      return l;
    }
  }

  /** Leaves; the last user stops the thread and closes the connection. */
  void release() {
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(dataSource);
    }
    stopping = true;
    deathWatch.stop();
    if (!wake()) {
      // No NOTIFY could wake the thread: ending its connection under its wait does.
      abortConnection();
    }
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The watches of other JVMs' owners that this JVM's pools wait behind. */
  DeathWatch deathWatch() {
    return deathWatch;
  }

  /** Heartbeats and locks of this JVM's owners. */
  Heartbeats heartbeats() {
    return heartbeats;
  }

  /**
   * Registers a new owner of {@code home}: its advisory lock on this listener's connection, then
   * its row, renewed from then on by the heartbeats. Blocks for one round trip.
   *
   * @param what names the pool or store in the error
   * @return the new owner's id
   */
  String registerOwner(OwnerHome home, long heartbeatTimeoutMillis, String what) {
    String id = OwnerIds.next();
    Heartbeats.Owner o =
        new Heartbeats.Owner(id, OwnerIds.lockKey(id), home, heartbeatTimeoutMillis);
    try {
      run(c -> heartbeats.register(c, o));
    } catch (SQLException e) {
      throw PgFailures.of(what + ": cannot register an owner", e);
    }
    return id;
  }

  /** LISTENs on a channel; its notifications go to {@code subscriber}. */
  void listen(String channel, Subscriber subscriber) throws SQLException {
    channels.put(channel, subscriber);
    run(c -> execute(c, "LISTEN " + quote(channel)));
  }

  /** Stops listening on a channel; best effort. */
  void unlisten(String channel) {
    channels.remove(channel);
    try {
      run(c -> execute(c, "UNLISTEN " + quote(channel)));
    } catch (SQLException e) {
      // A lost connection listens to nothing any more.
    }
  }

  /**
   * Runs work on the dedicated connection and waits for it.
   *
   * @throws SQLException if the work failed, or the connection could not be had
   */
  void run(ListenerWork.Work w) throws SQLException {
    if (Thread.currentThread() == thread) {
      w.run(connection);
      return;
    }
    CompletableFuture<Void> done = work.add(w);
    wake();
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for the listener connection", "57014", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SQLException sql) {
        throw sql;
      }
      throw new SQLException("the listener connection failed: " + cause, "08006", cause);
    }
  }

  /**
   * Wakes the thread from its wait for notifications: a NOTIFY on its control channel.
   *
   * @return false if no connection could be had to send it; the queued work has failed then
   */
  private boolean wake() {
    work.signal();
    if (!connected) {
      return true; // it is connecting or pausing, and looks at its tasks next
    }
    Connection c;
    try {
      c = dataSource.getConnection();
    } catch (SQLException e) {
      // Nothing else wakes the thread from its wait on the dedicated connection: the queued work
      // fails now rather than waiting for a wake that may never come (a pool of one connection,
      // which the listener holds, would make every caller wait for ever).
      work.failAll(noSpareConnection(e));
      return false;
    }
    try (c;
        var st = c.prepareStatement("SELECT pg_notify(?, '')")) {
      st.setString(1, controlChannel);
      st.execute();
    } catch (SQLException e) {
      // The server is unreachable: the listener's connection fails too and it reconnects.
    }
    return true;
  }

  /**
   * Checks that the data source gives a connection besides the dedicated one, which it holds once a
   * LISTEN has run: with a pool of one connection every later wake, and so every caller, would
   * wait. Blocks at most as long as the data source waits for a free connection.
   *
   * @throws SQLException naming what the pool lacks, if no connection could be had
   */
  void requireSpareConnection() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      // Taken and given back: the pool can serve commands beside the dedicated connection.
    } catch (SQLException e) {
      throw noSpareConnection(e);
    }
  }

  private static SQLException noSpareConnection(SQLException e) {
    return new SQLException(
        "no connection from the DataSource besides the one Sluice listens on ("
            + e.getMessage()
            + "); the pool must hold that dedicated connection and at least one more for"
            + " commands (README, \"PostgreSQL store\")",
        e.getSQLState(),
        e);
  }

  /** Ends the dedicated connection from another thread, which ends the listener's wait on it. */
  private void abortConnection() {
    Connection c = connection;
    if (c == null) {
      return;
    }
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // Already closed: the thread's wait has ended anyway.
    }
  }

  private void loop() {
    long retry = FIRST_RETRY_MILLIS;
    while (!stopping) {
      try {
        if (connection == null) {
          connect();
          retry = FIRST_RETRY_MILLIS;
        }
        work.runAll(connection);
        if (stopping) {
          break;
        }
        heartbeats.beatIfDue(connection);
        waitForNotifications();
      } catch (SQLException | RuntimeException e) {
        if (!down && !stopping) {
          LOG.warn(
              "the connection Sluice listens on for wakes and owner locks failed ({}); pending"
                  + " requests fail, and it reconnects every {} ms at first",
              e.toString(),
              retry);
        }
        down = true;
        disconnect();
        work.failAll(e);
        work.pause(retry, () -> stopping);
        retry = Math.min(retry * 2, lastRetryMillis());
      }
    }
    disconnect();
    work.failAll(new SQLException("the Sluice listener was stopped", "08003"));
  }

  /**
   * The longest pause between connection attempts: 5 s, or a sixth of the shortest heartbeat
   * timeout, so that after an outage (a server restart) the owners take their locks again and renew
   * well before their heartbeats lapse.
   */
  private long lastRetryMillis() {
    long shortest = heartbeats.shortestTimeoutMillis();
    return shortest == 0
        ? LAST_RETRY_MILLIS
        : Math.max(FIRST_RETRY_MILLIS, Math.min(LAST_RETRY_MILLIS, shortest / 6));
  }

  private void connect() throws SQLException {
    Connection c = dataSource.getConnection();
    connection = c;
    try {
      c.setAutoCommit(true);
      pg = c.unwrap(PGConnection.class);
      // Bounds the wait for an owner's lock that a terminated backend of this JVM still holds
      // while it exits, or that another JVM holds while it reclaims the owner.
      execute(c, "SET lock_timeout = '" + RETAKE_TIMEOUT_MILLIS + "ms'");
      execute(c, "LISTEN " + quote(controlChannel));
      for (String channel : channels.keySet()) {
        execute(c, "LISTEN " + quote(channel));
      }
      heartbeats.retake(c);
      connected = true;
    } catch (SQLException | RuntimeException e) {
      disconnect();
      throw e;
    }
    if (down) {
      LOG.info("the connection Sluice listens on is back; every owner reads its pool again");
      down = false;
    }
    if (everConnected) {
      // Notifications sent while this JVM was not listening are lost: every owner looks again.
      for (Subscriber s : channels.values()) {
        s.wakeAll();
      }
    }
    everConnected = true;
  }

  private void waitForNotifications() throws SQLException {
    long waitMillis = heartbeats.millisToNextBeat();
    PGNotification[] received =
        pg.getNotifications((int) Math.min(Integer.MAX_VALUE, Math.max(0, waitMillis)));
    if (received == null) {
      return;
    }
    for (PGNotification n : received) {
      Subscriber s = channels.get(n.getName());
      if (s != null) {
        s.onNotify(n.getParameter());
      }
    }
  }

  private void disconnect() {
    connected = false;
    if (connection != null) {
      closeQuietly(connection);
      connection = null;
      pg = null;
    }
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static String quote(String channel) {
    return "\"" + channel + "\"";
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      // Closing a broken connection is best effort.
    }
  }
}
