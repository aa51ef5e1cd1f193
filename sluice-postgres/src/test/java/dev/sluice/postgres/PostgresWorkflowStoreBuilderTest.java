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

/**
 * The workflow store's builder checks each setting when it is set, as the limiter store's does,
 * naming the field, the value and what is allowed; building reads and writes nothing.
 */
class PostgresWorkflowStoreBuilderTest {
  /** A real data source that is never connected. */
  private final HikariDataSource dataSource = new HikariDataSource();

  @Test
  void badSchemasPrefixesHeartbeatsAndConnectionsAreRefusedNamingFieldAndValue() {
    assertThatThrownBy(() -> PostgresWorkflowStore.builder(dataSource).schema("Sluice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema")
        .hasMessageContaining("'Sluice'")
        .hasMessageContaining("at most 63 characters");
    assertThatThrownBy(() -> PostgresWorkflowStore.builder(dataSource).tablePrefix("a.b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tablePrefix")
        .hasMessageContaining("'a.b'")
        .hasMessageContaining("at most 40 characters");
    assertThatThrownBy(
            () -> PostgresWorkflowStore.builder(dataSource).heartbeatTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("heartbeatTimeout")
        .hasMessageContaining("between 1s and 1h");
    assertThatThrownBy(() -> PostgresWorkflowStore.builder(dataSource).stepConnections(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stepConnections")
        .hasMessageContaining("was 0")
        .hasMessageContaining("between 1 and 16");
    assertThatThrownBy(() -> PostgresWorkflowStore.builder(dataSource).stepConnections(17))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 17");
    assertThatThrownBy(() -> PostgresWorkflowStore.of(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("dataSource");
  }

  @Test
  void theNameSaysWhereTheTablesAre() {
    PostgresWorkflowStore store =
        PostgresWorkflowStore.builder(dataSource).schema("ops").tablePrefix("wf_").build();
    assertThat(store.name()).isEqualTo("postgres:ops.wf_workflows");
    assertThat(PostgresWorkflowStore.of(dataSource).name())
        .isEqualTo("postgres:public.sluice_workflows");
  }
}
