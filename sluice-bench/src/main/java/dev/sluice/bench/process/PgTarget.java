/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.regex.Pattern;
import org.postgresql.Driver;

/**
 * Where one cap of the PostgreSQL benchmarks lives: the server's JDBC URL, the run's schema and the
 * cap's name (a pool name, a semaphore row, a bucket key). Only a server on a loopback address is
 * used. Immutable.
 *
 * @param url the JDBC URL, {@code SLUICE_POSTGRES_URL} or the local server's {@code test} database
 * @param schema the run's own schema, a lower-case identifier
 * @param name the cap's name, unique in the run
 */
record PgTarget(String url, String schema, String name) {
  /** The URL used unless {@code SLUICE_POSTGRES_URL} says otherwise. */
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  PgTarget {
    if (!IDENTIFIER.matcher(schema).matches()) {
      throw new IllegalArgumentException("schema must be a lower-case identifier, was " + schema);
    }
    requireLoopback(url);
  }

  /** The URL from {@code SLUICE_POSTGRES_URL}, else {@link #DEFAULT_URL}. */
  static String urlFromEnvironment() {
    return System.getenv().getOrDefault("SLUICE_POSTGRES_URL", DEFAULT_URL);
  }

  /** The same schema and server, another cap. */
  PgTarget named(String other) {
    return new PgTarget(url, schema, other);
  }

  /** A plain connection of its own, in autocommit mode. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  /**
   * A HikariCP pool of at most {@code max} connections, none kept idle.
   *
   * @param max the most connections
   * @param purpose part of the pool's and the connections' application name
   * @return the data source; the caller closes it
   */
  HikariDataSource dataSource(int max, String purpose) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(max);
    config.setMinimumIdle(0);
    config.setPoolName("bench-" + purpose);
    config.addDataSourceProperty("ApplicationName", "sluice-bench-" + purpose);
    return new HikariDataSource(config);
  }

  /** Runs one statement on a connection of its own. */
  void execute(String sql) throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static void requireLoopback(String url) {
    Properties p = Driver.parseURL(url, null);
    if (p == null) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + url);
    }
    for (String host : p.getProperty("PGHOST", "localhost").split(",")) {
      try {
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
          throw new IllegalArgumentException(
              "the URL names host " + host + "; the benchmarks only use a loopback server");
        }
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("the URL names unknown host " + host, e);
      }
    }
  }
}
