/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * One batch's transaction on a connection of its own: runs the batch's work, commits, and when the
 * commit's answer is lost with the connection looks the transaction up by its id, so a batch that
 * did commit is reported as applied and one that did not as failed: a caller told that its command
 * failed can rely on the store being as it was.
 *
 * <p>Thread-safe (stateless apart from its settings).
 */
final class BatchTransaction {
  /** The work of one transaction: what it applied, or {@code null} if it applied nothing. */
  @FunctionalInterface
  interface Work {
    AppliedBatch run(Connection c) throws SQLException, PgFailures.MalformedStateException;
  }

  /** A commit whose answer was lost and whose fate could not be learnt either. */
  static final class UnknownCommitException extends Exception {
    private static final long serialVersionUID = 1L;

    UnknownCommitException(SQLException cause) {
      super("the commit's answer was lost and whether it happened is unknown: " + cause, cause);
    }
  }

  /** Connections tried to learn the fate of a commit whose answer was lost. */
  private static final int LOOKUP_ATTEMPTS = 5;

  private final DataSource dataSource;
  private final PoolRows rows;

  BatchTransaction(DataSource dataSource, PoolRows rows) {
    this.dataSource = dataSource;
    this.rows = rows;
  }

  /** Runs {@code work} in one transaction and commits it; {@code null} if it applied nothing. */
  AppliedBatch run(Work work)
      throws SQLException, PgFailures.MalformedStateException, UnknownCommitException {
    AppliedBatch applied;
    Connection c = dataSource.getConnection();
    try {
      c.setAutoCommit(false);
      try {
        applied = work.run(c);
      } catch (SQLException | RuntimeException | PgFailures.MalformedStateException e) {
        rollbackQuietly(c, e);
        throw e;
      }
      try {
        c.commit();
        return applied;
      } catch (SQLException e) {
        if (applied == null || applied.txid() == 0) {
          throw e; // it wrote nothing, so nothing changed either way
        }
        if (committed(applied.txid(), e)) {
          return applied;
        }
        throw e;
      }
    } finally {
      // Never thrown: a batch that committed must be reported as applied.
      closeQuietly(c);
    }
  }

  /**
   * Looks the transaction up on a new connection; a few times, as the data source may first hand
   * out connections that the same failure broke.
   */
  private boolean committed(long txid, SQLException lost) throws UnknownCommitException {
    for (int attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
      try (Connection c = dataSource.getConnection()) {
        c.setAutoCommit(false);
        return rows.committed(c, txid);
      } catch (SQLException e) {
        lost.addSuppressed(e);
      }
    }
    throw new UnknownCommitException(lost);
  }

  static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      // A broken connection has nothing left to undo: the original error says why.
      cause.addSuppressed(e);
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      // A broken connection is dropped by its pool.
    }
  }
}
