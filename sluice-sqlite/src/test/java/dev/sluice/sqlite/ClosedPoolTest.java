/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed limiter is done with its pool directory when {@code close()} returns: its coordinator
 * thread has ended and SQLite has closed the database, so the caller may delete or move the
 * directory at once. Checked immediately after {@code close()}, never after a wait.
 */
class ClosedPoolTest {
  private static final LimiterConfig SPACED =
      LimiterConfig.builder()
          .maxConcurrent(2)
          .minTime(Duration.ofMillis(1))
          .expiration(Duration.ofSeconds(30))
          .build();

  @TempDir Path root;

  @Test
  void closeReturnsAfterTheCoordinatorEndedAndTheWalIsGone() throws Exception {
    Path dir = root.resolve("closing-pool");
    Thread coordinator;
    try (Limiter limiter = Limiter.open(SqliteStore.directory(dir), SPACED)) {
      for (int i = 0; i < 5; i++) {
        limiter.schedule(() -> "done").join();
      }
      assertThat(dir.resolve("state.db-wal")).exists();
      coordinator = thread("sluice-sqlite-closing-pool");
    }
    assertThat(coordinator.isAlive()).as("coordinator alive right after close()").isFalse();
    assertThat(dir.resolve("state.db-wal")).doesNotExist();
    assertThat(dir.resolve("state.db-shm")).doesNotExist();
    deleteTree(dir);
    assertThat(dir).doesNotExist();
  }

  private static Thread thread(String name) {
    List<Thread> found =
        Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).toList();
    assertThat(found).as("threads named " + name).hasSize(1);
    return found.get(0);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
