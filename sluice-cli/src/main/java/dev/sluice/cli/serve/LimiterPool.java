/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.Limiter;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A SQLite limiter pool the console shows: its directory and a limiter opened on it with the
 * configuration stored there, through which the console reads ({@link Limiter#inspect}, {@link
 * Limiter#maintenance}) and drains. The console never admits work through it.
 *
 * @param dir the pool's directory
 * @param limiter the limiter, open while the console runs (the caller closes it)
 */
public record LimiterPool(Path dir, Limiter limiter) {
  /** Checks the components. */
  public LimiterPool {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(limiter, "limiter");
  }

  /** The directory as the API names the pool: its absolute path. */
  public String key() {
    return dir.toAbsolutePath().normalize().toString();
  }
}
