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
 * What a workflow store needs to open a session; checked by the public builder.
 *
 * @param dataSource where connections come from
 * @param tables the schema and table prefix
 * @param heartbeatTimeout how long an owner's heartbeat lasts before the owner counts as dead
 * @param clientClock the clock of the store's time when it is not the server's (tests), or empty
 * @param stepConnections how many connections a session keeps for claims and step writes
 */
public record PgWorkflowSettings(
    DataSource dataSource,
    Tables tables,
    Duration heartbeatTimeout,
    Optional<TimeSource> clientClock,
    int stepConnections) {
  /** Checks the components. */
  public PgWorkflowSettings {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(tables, "tables");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    Objects.requireNonNull(clientClock, "clientClock");
    SettingChecks.stepConnections(stepConnections);
  }

  /** Names the store in messages: where its tables live. */
  public String describe() {
    return "workflow store " + tables.describe();
  }

  /** The store's name: its schema and table prefix. */
  public String name() {
    return "postgres:" + tables.schema() + "." + tables.prefix() + "workflows";
  }

  /** The clock of the store's time: the client clock, or the server's as this JVM sees it. */
  public TimeSource clock() {
    return clientClock.orElseGet(() -> ServerClock.of(dataSource));
  }
}
