/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The checks of the settings that the PostgreSQL stores' builders share, each naming the setting,
 * the value and what is allowed, so that the limiter's and the workflows' builders accept exactly
 * the same values.
 *
 * <p>Thread-safe (stateless).
 */
public final class SettingChecks {
  private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
  private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,39}");
  private static final Duration MIN_HEARTBEAT = Duration.ofSeconds(1);
  private static final Duration MAX_HEARTBEAT = Duration.ofHours(1);
  private static final int MAX_STEP_CONNECTIONS = 16;

  private SettingChecks() {}

  /**
   * Checks a schema name: a lower-case SQL identifier of at most 63 characters.
   *
   * @param schema the value
   * @return the value
   */
  public static String schema(String schema) {
    return identifier("schema", schema, SCHEMA, 63);
  }

  /**
   * Checks a table prefix: a lower-case SQL identifier of at most 40 characters.
   *
   * @param tablePrefix the value
   * @return the value
   */
  public static String tablePrefix(String tablePrefix) {
    return identifier("tablePrefix", tablePrefix, PREFIX, 40);
  }

  /**
   * Checks a heartbeat timeout: from 1 second to 1 hour.
   *
   * @param timeout the value
   * @return the value
   */
  public static Duration heartbeatTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "heartbeatTimeout");
    if (timeout.compareTo(MIN_HEARTBEAT) < 0 || timeout.compareTo(MAX_HEARTBEAT) > 0) {
      throw new IllegalArgumentException(
          "heartbeatTimeout must be between 1s and 1h, was " + timeout);
    }
    return timeout;
  }

  /**
   * Checks how many connections a workflow session keeps for claims and step writes: 1 to 16.
   *
   * @param connections the value
   * @return the value
   */
  public static int stepConnections(int connections) {
    if (connections < 1 || connections > MAX_STEP_CONNECTIONS) {
      throw new IllegalArgumentException(
          "stepConnections must be between 1 and " + MAX_STEP_CONNECTIONS + ", was " + connections);
    }
    return connections;
  }

  private static String identifier(String field, String value, Pattern allowed, int max) {
    Objects.requireNonNull(value, field);
    if (!allowed.matcher(value).matches()) {
      throw new IllegalArgumentException(
          field
              + " must be a lower-case SQL identifier (a letter or underscore, then letters,"
              + " digits or underscores, at most "
              + max
              + " characters), was '"
              + value
              + "'");
    }
    return value;
  }
}
