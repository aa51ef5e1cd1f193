/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariDataSource;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The peer: Bucket4j's PostgreSQL proxy manager ({@code
 * PostgreSQLSelectForUpdateBasedProxyManager}, each call one transaction: {@code SELECT state ...
 * FOR UPDATE} on the bucket's row, then {@code UPDATE}, then commit) over a HikariCP pool with as
 * many connections as the process has threads.
 *
 * <p>Bucket4j is a rate limiter, not a semaphore: nothing is held, so nothing is released. One
 * "acquire" here is {@code bucket.tryConsume(1)} on a bucket of {@value #TOKENS} tokens refilled
 * greedily at {@value #TOKENS} per second, which never runs dry at these rates (a refused consume
 * is counted and retried, and the report shows the count); "release" does nothing. So a Bucket4j
 * cycle is one transaction on one row, against Sluice's acquire and release. Thread-safe.
 */
final class Bucket4jContender implements Contender {
  /** Capacity and refill per second: far above any rate reached here. */
  static final long TOKENS = 1_000_000_000L;

  private final HikariDataSource dataSource;
  private final BucketProxy bucket;
  private final LongAdder refused = new LongAdder();

  private Bucket4jContender(HikariDataSource dataSource, BucketProxy bucket) {
    this.dataSource = dataSource;
    this.bucket = bucket;
  }

  /** Creates Bucket4j's table in the run's schema if needed (its documented layout). */
  static void create(PgTarget target) throws SQLException {
    target.execute(
        "CREATE TABLE IF NOT EXISTS "
            + table(target)
            + " (id BIGINT PRIMARY KEY, state BYTEA, expires_at BIGINT)");
  }

  /**
   * Opens the bucket keyed by the target's name; Bucket4j inserts its row on first use.
   *
   * @param target the table's schema and the bucket's name
   * @param threads threads of this process, one connection each
   * @return the contender
   */
  static Bucket4jContender open(PgTarget target, int threads) {
    HikariDataSource ds = target.dataSource(threads, "bucket4j-" + target.name());
    BucketConfiguration config =
        BucketConfiguration.builder()
            .addLimit(
                Bandwidth.builder()
                    .capacity(TOKENS)
                    .refillGreedy(TOKENS, Duration.ofSeconds(1))
                    .build())
            .build();
    BucketProxy bucket =
        Bucket4jPostgreSQL.selectForUpdateBasedBuilder(ds)
            .table(table(target))
            .build()
            .builder()
            .build(key(target), () -> config);
    return new Bucket4jContender(ds, bucket);
  }

  private static String table(PgTarget target) {
    return target.schema() + ".bucket4j";
  }

  private static long key(PgTarget target) {
    return target.name().hashCode() & 0x7fff_ffffL;
  }

  /** Consumes that found the bucket empty (expected: none). */
  @Override
  public long emptyUpdates() {
    return refused.sum();
  }

  @Override
  public Permits forThread() {
    return new Permits() {
      @Override
      public void acquire(int weight) {
        while (!bucket.tryConsume(weight)) {
          refused.increment();
        }
      }

      @Override
      public void release() {
        // A rate limiter holds nothing.
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
