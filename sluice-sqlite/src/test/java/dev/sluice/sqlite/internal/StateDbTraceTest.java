/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LimiterConfig;
import dev.sluice.TraceEvent;
import dev.sluice.local.GateLock;
import dev.sluice.local.PoolDirectory;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two connections on one {@code state.db}, taking turns as two processes do under the gate: each
 * sees the other's trace entries, whether they are still in the row or moved to the table, with the
 * same sequences, and a newcomer reads the same trace.
 */
class StateDbTraceTest {
  private static final LimiterConfig CONFIG = LimiterConfig.builder().maxConcurrent(1000).build();

  @TempDir Path root;

  /** One process's view: its connection, its copy and the version it has. */
  private static final class View {
    final StateDb db;
    PoolState copy;
    long version;

    View(StateDb db) throws Exception {
      this.db = db;
      refresh();
    }

    void refresh() throws Exception {
      copy = db.read(CONFIG, copy, version);
      version = db.version;
    }
  }

  @Test
  void bothConnectionsAndANewcomerSeeOneTrace() throws Exception {
    PoolDirectory dir = PoolDirectory.open(root.resolve("p"));
    dir.createLayout();
    GateLock gate = GateLock.open(dir);
    View a = new View(StateDb.open(dir, CONFIG, 0, 64, false));
    View b = new View(StateDb.open(dir, CONFIG, 0, 64, false));
    Random random = new Random(7);
    try {
      for (int round = 0; round < 150; round++) {
        View writer = random.nextInt(3) == 0 ? b : a;
        View reader = writer == a ? b : a;
        writer.refresh();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
          long id = writer.copy.nextEntryId();
          writer.copy.putLease(
              new LeaseRecord(id, writer == a ? "a" : "b", id, 1, round, PoolState.NEVER, id));
          writer.copy.trace().add(TraceEvent.Kind.ADMITTED, id, "x", id, round);
        }
        try (GateLock.Hold hold = gate.hold()) {
          writer.db.write(
              hold, writer.copy, writer.version + 1, writer.db.fencingReserved, false, 0, null);
        }
        writer.copy.markClean();
        writer.version++;
        reader.refresh();
        assertThat(reader.copy.trace().nextSequence())
            .isEqualTo(writer.copy.trace().nextSequence());
        assertThat(reader.copy.trace().entries()).isEqualTo(writer.copy.trace().entries());
        assertThat(reader.copy.leases()).containsExactlyElementsOf(writer.copy.leases());
      }
      View newcomer = new View(StateDb.open(dir, CONFIG, 0, 64, false));
      try {
        assertThat(newcomer.copy.trace().entries()).isEqualTo(a.copy.trace().entries());
        assertThat(newcomer.copy.trace().entries()).hasSize(64);
      } finally {
        newcomer.db.close();
      }
    } finally {
      a.db.close();
      b.db.close();
      gate.close();
    }
  }
}
