/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import dev.sluice.local.PoolDirectory;
import dev.sluice.local.SqliteFiles;
import dev.sluice.local.StoreFile;
import dev.sluice.spi.support.FormatCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Reads the configuration an existing pool was created with, for tools that act on a pool they did
 * not create (an operator's drain). Only reads: a missing directory or {@code state.db} is an empty
 * answer and nothing is created.
 *
 * <p>Thread-safe (stateless). Blocks on reading the file.
 */
public final class StoredConfig {
  private StoredConfig() {}

  /**
   * The configuration of the pool in {@code requested}.
   *
   * @param requested the pool directory
   * @return the configuration, empty if there is no pool there (yet)
   * @throws StoreFormatException if the directory or its {@code state.db} cannot be used
   */
  public static Optional<LimiterConfig> read(Path requested) {
    Path absolute = requested.toAbsolutePath().normalize();
    if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    PoolDirectory dir = PoolDirectory.open(absolute);
    if (!Files.exists(dir.file(PoolSchema.FILE))) {
      return Optional.empty();
    }
    Reader reader = new Reader(dir);
    try {
      StoreFile.precheck(dir, PoolSchema.FILE, "pool " + dir, reader);
    } catch (SQLException | IOException e) {
      throw new BackendFailureException("pool " + dir + ": cannot read state.db: " + e, e);
    }
    return Optional.ofNullable(reader.config);
  }

  /** Reads, never creates; a file still being created leaves {@link #config} null. */
  private static final class Reader implements StoreFile.Schema {
    private final PoolDirectory dir;
    private LimiterConfig config;

    Reader(PoolDirectory dir) {
      this.dir = dir;
    }

    @Override
    public void create(Connection db) {
      throw new IllegalStateException("reading a stored configuration never creates a pool");
    }

    @Override
    public void check(Connection db) throws SQLException {
      FormatCheck.require(
          "pool " + dir + ": state.db", SqliteFiles.meta(db, "format"), StateFormat.ids());
      try {
        config = LimiterConfig.parse(SqliteFiles.meta(db, "config"));
      } catch (RuntimeException e) {
        throw new StoreFormatException(
            "pool " + dir + ": state.db holds an unreadable configuration: " + e.getMessage(), e);
      }
    }
  }
}
