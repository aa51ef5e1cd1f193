/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import dev.sluice.testkit.LimiterConformanceSuite;
import dev.sluice.testkit.StoreFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The SQLite store runs the whole conformance suite, unchanged, on real files. */
class SqliteStoreConformanceTest extends LimiterConformanceSuite {
  private static final Path ROOT = root();

  private static Path root() {
    try {
      return Files.createTempDirectory("sluice-sqlite-conformance");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected StoreFactory stores() {
    return (name, clock) -> SqliteStore.directory(ROOT.resolve(name)).withClock(clock);
  }
}
