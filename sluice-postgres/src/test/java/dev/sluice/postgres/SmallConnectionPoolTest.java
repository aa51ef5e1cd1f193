/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.BackendFailureException;
import dev.sluice.Limiter;
import dev.sluice.LimiterConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A connection pool of one connection, which the dedicated listening connection takes: opening a
 * pool or a workflow store on it fails with an error that says what the pool lacks, instead of
 * waiting for ever for a second connection to wake the listener.
 */
class SmallConnectionPoolTest {
  private final TestDatabase db = TestDatabase.create(2);
  private final HikariDataSource one = onlyOneConnection();

  private static HikariDataSource onlyOneConnection() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(TestDatabase.URL);
    config.setMaximumPoolSize(1);
    config.setMinimumIdle(0);
    // Hikari's shortest wait for a connection, so that the refusal comes soon.
    config.setConnectionTimeout(250);
    return new HikariDataSource(config);
  }

  @AfterEach
  void close() throws Exception {
    one.close();
    db.close();
  }

  @Test
  void aLimiterPoolOnAPoolOfOneConnectionFailsToOpenNamingWhatIsMissing() {
    assertThatThrownBy(
            () ->
                Limiter.open(
                        PostgresStore.builder(one, "small").schema(db.schema()).build(),
                        LimiterConfig.builder().maxConcurrent(1).build())
                    .close())
        .isInstanceOf(BackendFailureException.class)
        .hasMessageContaining("at least one more for commands");
  }

  @Test
  void aWorkflowStoreOnAPoolOfOneConnectionFailsToOpenNamingWhatIsMissing() {
    assertThatThrownBy(
            () -> PostgresWorkflowStore.builder(one).schema(db.schema()).build().open().close())
        .isInstanceOf(BackendFailureException.class)
        .hasMessageContaining("at least one more for commands");
  }
}
