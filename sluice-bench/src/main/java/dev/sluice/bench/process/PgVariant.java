/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.LimiterConfig;
import dev.sluice.LimiterListener;
import dev.sluice.postgres.PostgresStore;
import java.time.Duration;

/** The caps compared on PostgreSQL, and how a process opens each. */
enum PgVariant {
  /** Sluice's {@link PostgresStore}, strict order (the default). */
  SLUICE("Sluice PostgresStore, strict order", 0),

  /** The same with {@code localHandOffs(16)}. */
  SLUICE_HAND_OFFS("Sluice PostgresStore, localHandOffs(16)", 16),

  /** {@link Bucket4jContender}: one {@code tryConsume(1)} per cycle, nothing released. */
  BUCKET4J("Bucket4j 8.18.0 PostgreSQL (SELECT … FOR UPDATE), tryConsume(1)", -1) {
    @Override
    void prepare(PgTarget target) throws Exception {
      Bucket4jContender.create(target);
    }

    @Override
    Contender open(PgTarget target, int cap, int threads, Duration heartbeat) {
      return Bucket4jContender.open(target, threads);
    }
  },

  /** {@link PgNaiveSemaphore}, the naive baseline written for this benchmark. */
  NAIVE("naive conditional-UPDATE semaphore (baseline)", -1) {
    @Override
    void prepare(PgTarget target) throws Exception {
      PgNaiveSemaphore.create(target);
    }

    @Override
    Contender open(PgTarget target, int cap, int threads, Duration heartbeat) {
      return PgNaiveSemaphore.open(target, cap);
    }
  };

  /** Connections of a Sluice process: the batch transaction, the listener, one to spare. */
  private static final int SLUICE_CONNECTIONS = 4;

  private final String label;
  private final int handOffs;

  PgVariant(String label, int handOffs) {
    this.label = label;
    this.handOffs = handOffs;
  }

  /** The name used in the report. */
  String label() {
    return label;
  }

  /** Whether this is one of Sluice's variants. */
  boolean isSluice() {
    return handOffs >= 0;
  }

  /**
   * Makes what the cap needs before any process opens it (Sluice creates its own tables and row).
   *
   * @param target the schema and the cap's name
   * @throws Exception if the server refuses
   */
  void prepare(PgTarget target) throws Exception {}

  /**
   * Opens the cap in this process.
   *
   * @param target where it is
   * @param cap units
   * @param threads threads of this process that will use it
   * @param heartbeat Sluice's owner heartbeat timeout
   * @return the contender
   */
  Contender open(PgTarget target, int cap, int threads, Duration heartbeat) {
    return openSluice(target, cap, heartbeat, e -> {});
  }

  /** Opens a Sluice variant, telling {@code listener} of each request. */
  SluiceContender openSluice(
      PgTarget target, int cap, Duration heartbeat, LimiterListener listener) {
    if (!isSluice()) {
      throw new IllegalStateException(this + " is not a Sluice variant");
    }
    LimiterConfig.Builder config = LimiterConfig.builder().maxConcurrent(cap);
    if (handOffs > 0) {
      config.localHandOffs(handOffs);
    }
    HikariDataSource ds = target.dataSource(SLUICE_CONNECTIONS, "sluice-" + target.name());
    PostgresStore store =
        PostgresStore.builder(ds, target.name())
            .schema(target.schema())
            .heartbeatTimeout(heartbeat)
            .build();
    return SluiceContender.open(store, config.build(), listener, ds);
  }
}
