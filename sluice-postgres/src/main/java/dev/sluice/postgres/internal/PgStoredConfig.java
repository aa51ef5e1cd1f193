/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.spi.support.FormatCheck;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Reads the configuration an existing pool was created with, for tools that act on a pool they did
 * not create (an operator's drain). Only reads: a missing table or pool row is an empty answer, and
 * no schema, table or row is created.
 *
 * <p>Thread-safe (stateless). Blocks on the database.
 */
public final class PgStoredConfig {
  private PgStoredConfig() {}

  /**
   * The configuration of the pool {@code settings} name.
   *
   * @param settings the pool and where its tables live
   * @return the configuration, empty if there is no such pool (or no Sluice tables) there
   * @throws StoreFormatException if the pool's row is of another format or its configuration is
   *     unreadable
   * @throws dev.sluice.BackendFailureException if the database cannot be read
   */
  public static Optional<LimiterConfig> read(PgSettings settings) {
    Tables tables = settings.tables();
    try (Connection c = settings.dataSource().getConnection()) {
      if (!tableExists(c, tables.pools())) {
        return Optional.empty();
      }
      try (PreparedStatement read =
          c.prepareStatement("SELECT format, config FROM " + tables.pools() + " WHERE pool = ?")) {
        read.setString(1, settings.pool());
        try (ResultSet rs = read.executeQuery()) {
          return rs.next()
              ? Optional.of(parse(settings.describe(), rs.getString(1), rs.getString(2)))
              : Optional.empty();
        }
      }
    } catch (SQLException e) {
      throw PgFailures.of(settings.describe() + ": cannot read its configuration", e);
    }
  }

  private static boolean tableExists(Connection c, String qualifiedName) throws SQLException {
    try (PreparedStatement find = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      find.setString(1, qualifiedName);
      try (ResultSet rs = find.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static LimiterConfig parse(String describe, String format, String config) {
    FormatCheck.require(describe, format, List.of(PoolRows.FORMAT));
    try {
      return LimiterConfig.parse(config);
    } catch (RuntimeException e) {
      throw new StoreFormatException(
          describe + " holds an unreadable configuration: " + e.getMessage(), e);
    }
  }
}
