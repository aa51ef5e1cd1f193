/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The naive baseline on PostgreSQL, written for this benchmark: the usual hand-made semaphore, a
 * table {@code sem(name text PRIMARY KEY, used int NOT NULL)} with one row per cap and one JDBC
 * connection per thread in autocommit mode.
 *
 * <ul>
 *   <li>acquire: {@code UPDATE sem SET used = used + w WHERE name = ? AND used <= cap - w} (for w =
 *       1 that is {@code used < cap}), retried after {@code Thread.sleep(1)} while it updates no
 *       row;
 *   <li>release: {@code UPDATE sem SET used = used - w WHERE name = ?}.
 * </ul>
 *
 * <p>No order, no wake-up (waiters poll), and nothing gives back the units of a process that dies
 * holding them. Thread-safe; each thread uses its own {@link Permits}.
 */
final class PgNaiveSemaphore implements Contender {
  private final PgTarget target;
  private final String table;
  private final int cap;
  private final LongAdder emptyUpdates = new LongAdder();

  private PgNaiveSemaphore(PgTarget target, int cap) {
    this.target = target;
    this.table = target.schema() + ".sem";
    this.cap = cap;
  }

  /** Creates the table if needed and the cap's row with {@code used = 0}. */
  static void create(PgTarget target) throws SQLException {
    String table = target.schema() + ".sem";
    target.execute(
        "CREATE TABLE IF NOT EXISTS " + table + " (name text PRIMARY KEY, used int NOT NULL)");
    try (Connection c = target.connect();
        PreparedStatement st =
            c.prepareStatement("INSERT INTO " + table + " (name, used) VALUES (?, 0)")) {
      st.setString(1, target.name());
      st.executeUpdate();
    }
  }

  /** Opens a semaphore made by {@link #create(PgTarget)}. */
  static PgNaiveSemaphore open(PgTarget target, int cap) {
    return new PgNaiveSemaphore(target, cap);
  }

  /** The units held now. */
  long used() throws SQLException {
    try (Connection c = target.connect();
        PreparedStatement st =
            c.prepareStatement("SELECT used FROM " + table + " WHERE name = ?")) {
      st.setString(1, target.name());
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Override
  public long emptyUpdates() {
    return emptyUpdates.sum();
  }

  @Override
  public ThreadPermits forThread() throws SQLException {
    return new ThreadPermits(target.connect());
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
              "UPDATE " + table + " SET used = used + ? WHERE name = ? AND used <= ? - ?");
      this.give =
          connection.prepareStatement("UPDATE " + table + " SET used = used - ? WHERE name = ?");
    }

    @Override
    public void acquire(int weight) throws SQLException, InterruptedException {
      while (!tryOnce(weight)) {
        Thread.sleep(1);
      }
    }

    /** Tries until {@code wait} has passed; whether the units are now held. */
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
      take.setString(2, target.name());
      take.setInt(3, cap);
      take.setInt(4, weight);
      if (take.executeUpdate() == 0) {
        emptyUpdates.increment();
        return false;
      }
      held = weight;
      return true;
    }

    @Override
    public void release() throws SQLException {
      give.setInt(1, held);
      give.setString(2, target.name());
      give.executeUpdate();
      held = 0;
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
