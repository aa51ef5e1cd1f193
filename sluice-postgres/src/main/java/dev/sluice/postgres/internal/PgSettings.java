/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What a store needs to open a pool; checked by the public builder.
 *
 * @param dataSource where connections come from
 * @param tables the schema and table prefix
 * @param pool the pool's name
 * @param heartbeatTimeout how long an owner's heartbeat lasts before the owner counts as dead
 * @param clientClock the clock of shared deadlines when it is not the server's (tests), or empty
 * @param traceCapacity trace entries kept when the pool is created
 */
public record PgSettings(
    DataSource dataSource,
    Tables tables,
    String pool,
    Duration heartbeatTimeout,
    Optional<TimeSource> clientClock,
    int traceCapacity) {
  /** Checks the components. */
  public PgSettings {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(tables, "tables");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(clientClock, "clientClock");
  }

  /** Names the pool in messages: its name and where it lives. */
  public String describe() {
    return "pool '" + pool + "' in " + tables.describe();
  }

  /** The clock of shared deadlines: the client clock, or the server's as this JVM sees it. */
  public TimeSource clock() {
    return clientClock.orElseGet(() -> ServerClock.of(dataSource));
  }
}
