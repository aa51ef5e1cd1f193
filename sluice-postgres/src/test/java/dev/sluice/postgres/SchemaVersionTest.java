/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.Lease;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import dev.sluice.StoreFormatException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library's own schema versions: a newer version is refused, naming both, with nothing changed;
 * an older one (here: a schema-version table that records no limiter tables yet) is brought
 * forward; and stores that create one pool at once, on separate connections, create it once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SchemaVersionTest {
  private static final LimiterConfig CAP_2 = LimiterConfig.builder().maxConcurrent(2).build();

  private final TestDatabase db = TestDatabase.create();

  @AfterEach
  void drop() throws SQLException {
    db.close();
  }

  @Test
  void tablesOfANewerVersionAreRefusedNamingBothVersionsAndNothingChanges() throws Exception {
    try (Limiter limiter = Limiter.open(db.store("first").build(), CAP_2)) {
      limiter.acquire(1).close();
    }
    db.execute(
        "UPDATE \""
            + db.schema()
            + "\".sluice_schema_version SET version = 4 WHERE component = 'limiter'");
    List<String> before = contents();

    assertThatThrownBy(() -> Limiter.open(db.store("second").build(), CAP_2))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining(db.schema() + ".sluice_*")
        .hasMessageContaining("schema version '4'")
        .hasMessageContaining("reads versions 1 to 3")
        .hasMessageContaining("nothing was changed");
    assertThat(contents()).as("every table and row as it was").isEqualTo(before);
  }

  @Test
  void aSchemaVersionTableWithoutTheLimiterIsBroughtForward() throws Exception {
    db.execute("CREATE SCHEMA \"" + db.schema() + "\"");
    db.execute(
        "CREATE TABLE \""
            + db.schema()
            + "\".sluice_schema_version (component text PRIMARY KEY, version integer NOT NULL)");
    db.execute(
        "INSERT INTO \"" + db.schema() + "\".sluice_schema_version VALUES ('something-else', 7)");
    try (Limiter limiter = Limiter.open(db.store("p").build(), CAP_2)) {
      assertThat(limiter.tryAcquire(2)).isPresent().get().satisfies(Lease::close);
    }
    assertThat(contents())
        .contains("sluice_schema_version: limiter|3", "sluice_schema_version: something-else|7")
        .anyMatch(line -> line.startsWith("sluice_limiter_pools: p|"));
  }

  @Test
  void tablesOfVersionOneAreMigratedForwardAndKeepTheirPools() throws Exception {
    try (Limiter limiter = Limiter.open(db.store("kept").build(), CAP_2)) {
      limiter.acquire(1).close();
    }
    String schema = "\"" + db.schema() + "\"";
    db.execute("ALTER TABLE " + schema + ".sluice_limiter_owners DROP COLUMN locked_in");
    db.execute("ALTER TABLE " + schema + ".sluice_limiter_owners DROP COLUMN watching");
    db.execute(
        "UPDATE " + schema + ".sluice_schema_version SET version = 1 WHERE component = 'limiter'");

    try (Limiter limiter = Limiter.open(db.store("kept").build(), CAP_2)) {
      assertThat(limiter.tryAcquire(2)).isPresent().get().satisfies(Lease::close);
    }
    assertThat(contents())
        .contains("sluice_schema_version: limiter|3")
        .anyMatch(line -> line.startsWith("sluice_limiter_pools: kept|"));
    try (Connection c = db.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = '"
                    + db.schema()
                    + "' AND table_name = 'sluice_limiter_owners'"
                    + " AND column_name IN ('locked_in', 'watching')")) {
      rs.next();
      assertThat(rs.getInt(1)).as("the owners' lock incarnation and watching columns").isEqualTo(2);
    }
  }

  @Test
  void storesThatCreateOnePoolAtOnceCreateItOnce() throws Exception {
    int racers = 6;
    List<HikariDataSource> sources = new ArrayList<>();
    List<CompletableFuture<Limiter>> opened = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    try {
      for (int i = 0; i < racers; i++) {
        HikariDataSource ds = db.dataSource(3);
        sources.add(ds);
        PostgresStore store = PostgresStore.builder(ds, "raced").schema(db.schema()).build();
        opened.add(
            CompletableFuture.supplyAsync(
                () -> {
                  TestDatabase.awaitQuietly(start);
                  return Limiter.open(store, CAP_2);
                }));
      }
      start.countDown();
      List<Limiter> limiters = new ArrayList<>();
      for (CompletableFuture<Limiter> f : opened) {
        limiters.add(f.get(60, TimeUnit.SECONDS));
      }
      List<Optional<Lease>> tries = new ArrayList<>();
      for (Limiter l : limiters) {
        tries.add(l.tryAcquire(1));
      }
      assertThat(tries.stream().filter(Optional::isPresent).count())
          .as("one pool, one cap, whichever store created it")
          .isEqualTo(2);
      tries.forEach(t -> t.ifPresent(Lease::close));
      assertThat(contents())
          .filteredOn(line -> line.startsWith("sluice_limiter_pools: "))
          .hasSize(1);
      assertThat(contents()).contains("sluice_schema_version: limiter|3");
      limiters.forEach(Limiter::close);
    } finally {
      sources.forEach(HikariDataSource::close);
    }
  }

  /** Every relation of the schema and the rows of the version and the store's tables. */
  private List<String> contents() throws SQLException {
    return db.contents(
        Map.of(
            "sluice_schema_version", "component || '|' || version",
            "sluice_limiter_pools", "pool || '|' || version || '|' || md5(state)",
            "sluice_limiter_owners", "owner_id"));
  }
}
