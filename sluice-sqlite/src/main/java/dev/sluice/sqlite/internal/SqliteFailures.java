/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.BackendFailureException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.sql.SQLException;

/**
 * Tells a SQLite failure that can pass by itself (a busy or locked database, an I/O error, a full
 * disk, a file that could not be opened for now) from one that cannot (corruption, a file that is
 * not a database, a schema or constraint error, a missing pool file).
 *
 * <p>Thread-safe (stateless).
 */
final class SqliteFailures {
  private static final int BUSY = 5;
  private static final int LOCKED = 6;
  private static final int NOMEM = 7;
  private static final int IOERR = 10;
  private static final int FULL = 13;
  private static final int CANTOPEN = 14;
  private static final int PROTOCOL = 15;

  private SqliteFailures() {}

  /** The failure as the limiter sees it, naming the pool. */
  static BackendFailureException of(String pool, Throwable e) {
    return new BackendFailureException("pool " + pool + ": store failed: " + e, e, kind(e));
  }

  static BackendFailureException.Kind kind(Throwable e) {
    if (e instanceof SQLException sql) {
      switch (sql.getErrorCode() & 0xff) {
        case BUSY, LOCKED, NOMEM, IOERR, FULL, CANTOPEN, PROTOCOL:
          return BackendFailureException.Kind.TRANSIENT;
        default:
          return BackendFailureException.Kind.PERMANENT;
      }
    }
    if (e instanceof IOException && !(e instanceof NoSuchFileException)) {
      return BackendFailureException.Kind.TRANSIENT;
    }
    return BackendFailureException.Kind.PERMANENT;
  }
}
