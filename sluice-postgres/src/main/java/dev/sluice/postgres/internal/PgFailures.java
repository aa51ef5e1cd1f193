/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Tells a PostgreSQL failure that can pass by itself (a lost connection, a server shutting down or
 * starting, a serialization failure or deadlock, a lock timeout, too many connections, a standby
 * promoted meanwhile) from one that cannot (a missing table, a damaged row, a refused privilege).
 *
 * <p>Thread-safe (stateless).
 */
final class PgFailures {
  /**
   * SQLSTATE classes that can pass by themselves: connection exceptions, insufficient resources.
   */
  private static final Set<String> TRANSIENT_CLASSES = Set.of("08", "53");

  /** SQLSTATEs that can pass by themselves. */
  private static final Set<String> TRANSIENT_STATES =
      Set.of(
          "57P01", // admin_shutdown (pg_terminate_backend, a fast shutdown)
          "57P02", // crash_shutdown
          "57P03", // cannot_connect_now (starting up)
          "25P03", // idle_in_transaction_session_timeout (a batch whose JVM was stopped mid-way)
          "57P05", // idle_session_timeout
          "57014", // query_canceled
          "40001", // serialization_failure
          "40P01", // deadlock_detected
          "55P03", // lock_not_available (lock_timeout)
          "58030", // io_error
          "25006"); // read_only_sql_transaction (a failover to a standby)

  private PgFailures() {}

  /** The failure as the limiter sees it, naming what failed. */
  static BackendFailureException of(String what, Throwable e) {
    return new BackendFailureException(what + ": " + e, e, kind(e));
  }

  static BackendFailureException.Kind kind(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MalformedStateException) {
        return BackendFailureException.Kind.PERMANENT;
      }
      if (t instanceof SQLException sql && transientState(sql.getSQLState())) {
        return BackendFailureException.Kind.TRANSIENT;
      }
      if (t instanceof SQLTransientException
          || t instanceof SQLRecoverableException
          || t instanceof IOException) {
        return BackendFailureException.Kind.TRANSIENT;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return BackendFailureException.Kind.PERMANENT;
  }

  /**
   * Whether the server answered with an error of a statement, which aborts the transaction: a
   * COMMIT sent in the same call then did not happen. A failure without an SQL state, of the
   * connection class or not an {@link SQLException} at all may have lost the answer of a commit
   * that happened.
   */
  static boolean refusedByServer(Throwable e) {
    return e instanceof SQLException sql
        && sql.getSQLState() != null
        && !sql.getSQLState().startsWith("08")
        && kind(e) == BackendFailureException.Kind.PERMANENT;
  }

  private static boolean transientState(String state) {
    return state != null
        && (TRANSIENT_STATES.contains(state)
            || (state.length() == 5 && TRANSIENT_CLASSES.contains(state.substring(0, 2))));
  }

  /** A state row that does not decode: the store is damaged or written by a newer Sluice. */
  static final class MalformedStateException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedStateException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
