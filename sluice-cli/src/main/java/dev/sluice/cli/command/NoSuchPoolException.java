/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.nio.file.Path;

/**
 * A {@code --pool-dir} that holds no limiter pool: missing, or a directory without {@code
 * state.db}. Nothing was created. Immutable.
 */
final class NoSuchPoolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NoSuchPoolException(Path dir) {
    super(
        "--pool-dir "
            + dir
            + ": no limiter pool there ("
            + (java.nio.file.Files.exists(dir) ? "no state.db" : "no such directory")
            + "); give the directory a limiter opened with SqliteStore.directory; nothing was"
            + " created");
  }
}
