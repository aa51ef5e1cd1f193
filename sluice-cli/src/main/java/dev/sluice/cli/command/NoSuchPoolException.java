/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A limiter pool a drain verb was pointed at that does not exist: a {@code --pool-dir} that is
 * missing or has no {@code state.db}, or a {@code --pool} the PostgreSQL database does not hold.
 * Nothing was created. Immutable.
 */
final class NoSuchPoolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private NoSuchPoolException(String message) {
    super(message);
  }

  static NoSuchPoolException directory(Path dir) {
    return new NoSuchPoolException(
        "--pool-dir "
            + dir
            + ": no limiter pool there ("
            + (Files.exists(dir) ? "no state.db" : "no such directory")
            + "); give the directory a limiter opened with SqliteStore.directory; nothing was"
            + " created");
  }

  static NoSuchPoolException postgres(String store) {
    return new NoSuchPoolException(
        store
            + ": no limiter pool of that name there; give --pool, --schema and --table-prefix of a"
            + " pool a limiter opened with PostgresStore; nothing was created");
  }
}
