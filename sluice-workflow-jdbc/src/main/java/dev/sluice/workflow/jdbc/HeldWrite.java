/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A unit's write held back to go with the next statement of its transaction, one round trip instead
 * of two: with the unit's next read or write, or, for the last write of a batch's only unit, with
 * the store's commit ({@link QueuedUnit#lastWrite()}).
 *
 * <p>Not thread-safe; used on the store's coordinator thread only.
 */
public interface HeldWrite {
  /** The write's SQL, table names rendered, for the driver to send with other statements. */
  String sql();

  /**
   * Binds the write's parameters into a statement that begins with {@link #sql()}.
   *
   * @param st the statement
   * @param at the index of the parameter before the write's first (0 when it comes first)
   * @return the index of the write's last parameter
   * @throws SQLException if a parameter cannot be set
   */
  int bind(PreparedStatement st, int at) throws SQLException;

  /**
   * Sends the write alone.
   *
   * @throws SQLException if it fails
   */
  void send() throws SQLException;
}
