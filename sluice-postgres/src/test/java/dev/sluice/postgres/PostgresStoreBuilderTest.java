/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every setting is checked when it is set, with a message naming the field, value and range. */
class PostgresStoreBuilderTest {
  /** A real data source that is never connected: building a store reads and writes nothing. */
  private final HikariDataSource dataSource = new HikariDataSource();

  @Test
  void schemaNamesThatAreNotLowerCaseIdentifiersAreRefused() {
    for (String bad : new String[] {"", "Sluice", "1pool", "a-b", "a b", "x".repeat(64), "s\"x"}) {
      assertThatThrownBy(() -> PostgresStore.builder(dataSource, "p").schema(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("schema")
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("at most 63 characters");
    }
    assertThat(PostgresStore.builder(dataSource, "p").schema("x".repeat(63)).build()).isNotNull();
  }

  @Test
  void tablePrefixesThatAreNotShortLowerCaseIdentifiersAreRefused() {
    for (String bad : new String[] {"", "Sl_", "9_", "a.b", "x".repeat(41)}) {
      assertThatThrownBy(() -> PostgresStore.builder(dataSource, "p").tablePrefix(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("tablePrefix")
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("at most 40 characters");
    }
  }

  @Test
  void heartbeatTimeoutsOutsideOneSecondToOneHourAreRefused() {
    for (Duration bad :
        new Duration[] {Duration.ZERO, Duration.ofMillis(999), Duration.ofHours(1).plusMillis(1)}) {
      assertThatThrownBy(() -> PostgresStore.builder(dataSource, "p").heartbeatTimeout(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("heartbeatTimeout")
          .hasMessageContaining(bad.toString())
          .hasMessageContaining("between 1s and 1h");
    }
  }

  @Test
  void poolNamesMustBeNonBlankAndShort() {
    assertThatThrownBy(() -> PostgresStore.of(dataSource, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pool must be non-blank");
    assertThatThrownBy(() -> PostgresStore.of(dataSource, "p".repeat(201)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 200 characters")
        .hasMessageContaining("(201 characters)");
    assertThatThrownBy(() -> PostgresStore.of(null, "p")).isInstanceOf(NullPointerException.class);
  }

  @Test
  void traceCapacityIsBounded() {
    assertThatThrownBy(() -> PostgresStore.builder(dataSource, "p").traceCapacity(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("traceCapacity must be between 1 and 10000, was 0");
  }

  @Test
  void aStoreNamesItsPoolAndWhereItLives() {
    PostgresStore store =
        PostgresStore.builder(dataSource, "payments").schema("billing").tablePrefix("t_").build();
    assertThat(store.poolName()).isEqualTo("payments");
    assertThat(store.poolIdentity()).endsWith(":billing.t_:payments");
    assertThat(store).hasToString("PostgresStore[pool 'payments' in billing.t_*]");
    assertThat(PostgresStore.of(dataSource, "payments").poolIdentity())
        .as("another schema or prefix is another pool")
        .isNotEqualTo(store.poolIdentity());
  }
}
