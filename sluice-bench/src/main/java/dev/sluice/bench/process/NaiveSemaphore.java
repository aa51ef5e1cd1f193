/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The usual hand-made cross-process semaphore on SQLite, the baseline Sluice is compared to: one
 * database file in WAL mode with {@code synchronous=NORMAL} and {@code busy_timeout=5000}, a table
 * {@code sem(id INTEGER PRIMARY KEY, used INTEGER NOT NULL)} with one row, and one JDBC connection
 * per thread in autocommit mode.
 *
 * <ul>
 *   <li>acquire: {@code UPDATE sem SET used = used + w WHERE id = 1 AND used <= cap - w} (for w = 1
 *       that is {@code used < cap}), retried after {@code Thread.sleep(1)} while it updates no row;
 *   <li>release: {@code UPDATE sem SET used = used - w WHERE id = 1}.
 * </ul>
 *
 * <p>An {@code SQLITE_BUSY} that outlasts the busy timeout is counted and retried too. Nothing
 * gives back the units of a process that dies while holding them. Thread-safe; each thread uses its
 * own {@link Permits}.
 */
final class NaiveSemaphore implements Contender {
  private static final int SQLITE_BUSY = 5;

  private final Path file;
  private final int cap;
  private final LongAdder emptyUpdates = new LongAdder();
  private final LongAdder busyErrors = new LongAdder();

  private NaiveSemaphore(Path file, int cap) {
    this.file = file;
    this.cap = cap;
  }

  /**
   * Creates the database file with its one row, {@code used = 0}, in WAL mode. Call once, before
   * any process opens it.
   *
   * @param file the database file, which must not exist
   * @throws SQLException if SQLite fails
   */
  static void create(Path file) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("CREATE TABLE sem(id INTEGER PRIMARY KEY, used INTEGER NOT NULL)");
      st.execute("INSERT INTO sem(id, used) VALUES (1, 0)");
    }
  }

  /**
   * Opens an existing semaphore.
   *
   * @param file the database file made by {@link #create(Path)}
   * @param cap the number of units
   * @return the semaphore
   */
  static NaiveSemaphore open(Path file, int cap) {
    return new NaiveSemaphore(file, cap);
  }

  /**
   * Reads the number of units held now.
   *
   * @return {@code used}
   * @throws SQLException if SQLite fails
   */
  long used() throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT used FROM sem WHERE id = 1")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Conditional updates that changed no row (the cap was full), summed over all threads. */
  @Override
  public long emptyUpdates() {
    return emptyUpdates.sum();
  }

  /** {@code SQLITE_BUSY} errors after the busy timeout, summed over all threads. */
  @Override
  public long busyErrors() {
    return busyErrors.sum();
  }

  private Connection connect() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode=WAL");
      st.execute("PRAGMA synchronous=NORMAL");
      st.execute("PRAGMA busy_timeout=5000");
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    c.setAutoCommit(true);
    return c;
  }

  @Override
  public ThreadPermits forThread() throws SQLException {
    return new ThreadPermits(connect());
  }

  @Override
  public void close() {
    // Connections belong to the threads' handles.
  }

  /** One thread's connection and the weight it holds. */
  final class ThreadPermits implements Permits {
    private final Connection connection;
    private final PreparedStatement take;
    private final PreparedStatement give;
    private int held;

    private ThreadPermits(Connection connection) throws SQLException {
      this.connection = connection;
      this.take =
          connection.prepareStatement(
              "UPDATE sem SET used = used + ? WHERE id = 1 AND used <= ? - ?");
      this.give = connection.prepareStatement("UPDATE sem SET used = used - ? WHERE id = 1");
    }

    @Override
    public void acquire(int weight) throws SQLException, InterruptedException {
      while (!tryOnce(weight)) {
        Thread.sleep(1);
      }
    }

    /**
     * Tries until {@code wait} has passed.
     *
     * @param weight units
     * @param wait the longest wait
     * @return whether the units are now held
     * @throws SQLException if SQLite fails
     * @throws InterruptedException if interrupted
     */
    boolean tryAcquire(int weight, Duration wait) throws SQLException, InterruptedException {
      long deadline = System.nanoTime() + wait.toNanos();
      while (!tryOnce(weight)) {
        if (System.nanoTime() - deadline >= 0) {
          return false;
        }
        Thread.sleep(1);
      }
      return true;
    }

    private boolean tryOnce(int weight) throws SQLException {
      take.setInt(1, weight);
      take.setInt(2, cap);
      take.setInt(3, weight);
      int rows;
      try {
        rows = take.executeUpdate();
      } catch (SQLException e) {
        if ((e.getErrorCode() & 0xff) != SQLITE_BUSY) {
          throw e;
        }
        busyErrors.increment();
        return false;
      }
      if (rows == 0) {
        emptyUpdates.increment();
        return false;
      }
      held = weight;
      return true;
    }

    @Override
    public void release() throws SQLException {
      give.setInt(1, held);
      while (true) {
        try {
          give.executeUpdate();
          held = 0;
          return;
        } catch (SQLException e) {
          if ((e.getErrorCode() & 0xff) != SQLITE_BUSY) {
            throw e;
          }
          busyErrors.increment();
        }
      }
    }

    @Override
    public void close() throws SQLException {
      try {
        if (held > 0) {
          release();
        }
      } finally {
        connection.close();
      }
    }
  }
}
