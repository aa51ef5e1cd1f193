/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Runs a prepared query and maps each row: the one loop every row class of the store needs. */
final class RowLists {
  private RowLists() {}

  /** Maps one row; may throw for a row it cannot map. */
  @FunctionalInterface
  interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /** The rows of {@code query}, mapped in order. */
  static <T> List<T> list(PreparedStatement query, RowMapper<T> mapper) throws SQLException {
    List<T> out = new ArrayList<>();
    try (ResultSet rs = query.executeQuery()) {
      while (rs.next()) {
        out.add(mapper.map(rs));
      }
    }
    return out;
  }
}
