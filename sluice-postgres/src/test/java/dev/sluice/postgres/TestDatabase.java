/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.postgresql.Driver;

/**
 * The tests' PostgreSQL server (the URL in {@code SLUICE_POSTGRES_URL}, by default the local
 * server's {@code test} database) and a fresh schema of its own, dropped on close. Only a server on
 * a loopback address is used: a test never sends traffic anywhere else.
 */
public final class TestDatabase implements AutoCloseable {
  static final String URL =
      System.getenv()
          .getOrDefault(
              "SLUICE_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private final String schema =
      "sluice_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  private final HikariDataSource dataSource;

  /** A fresh schema name on the tests' server, with a pool of {@code maxConnections}. */
  public static TestDatabase create(int maxConnections) {
    return new TestDatabase(maxConnections);
  }

  private TestDatabase(int maxConnections) {
    requireLoopback(URL);
    this.dataSource = dataSource(maxConnections);
  }

  /** A fresh schema name on the tests' server, with a connection pool. */
  static TestDatabase create() {
    return new TestDatabase(16);
  }

  /** A new pool of connections to the tests' server, tagged with this schema's name. */
  HikariDataSource dataSource(int maxConnections) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(URL);
    config.setMaximumPoolSize(maxConnections);
    config.setMinimumIdle(0);
    config.setPoolName("sluice-test-" + schema);
    config.addDataSourceProperty("ApplicationName", applicationName());
    return new HikariDataSource(config);
  }

  /** The application name of this database's connections, to find them in pg_stat_activity. */
  String applicationName() {
    return "sluice-test-" + schema;
  }

  public HikariDataSource dataSource() {
    return dataSource;
  }

  public String schema() {
    return schema;
  }

  /** A store builder for {@code pool} in this schema. */
  PostgresStore.Builder store(String pool) {
    return PostgresStore.builder(dataSource, pool).schema(schema);
  }

  /** A workflow store builder in this schema. */
  PostgresWorkflowStore.Builder workflows() {
    return PostgresWorkflowStore.builder(dataSource).schema(schema);
  }

  /** A connection of its own, outside every pool, for the tests' own statements. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(URL);
  }

  /** Runs SQL on a connection of its own. */
  void execute(String sql) throws SQLException {
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    dataSource.close();
    execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
  }

  /**
   * Every relation of this test's schema, then each given table's rows as {@code table: row} (the
   * row as the SQL expression renders it, in its order): what a refusal must leave unchanged.
   *
   * @param rowsOf table name to the SQL expression that renders one of its rows as text
   */
  List<String> contents(Map<String, String> rowsOf) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              "SELECT relname FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace"
                  + " WHERE n.nspname = '"
                  + schema
                  + "' ORDER BY relname")) {
        while (rs.next()) {
          out.add("relation: " + rs.getString(1));
        }
      }
      for (Map.Entry<String, String> table : rowsOf.entrySet()) {
        try (ResultSet rs =
            st.executeQuery(
                "SELECT "
                    + table.getValue()
                    + " FROM \""
                    + schema
                    + "\"."
                    + table.getKey()
                    + " ORDER BY 1")) {
          while (rs.next()) {
            out.add(table.getKey() + ": " + rs.getString(1));
          }
        }
      }
    }
    return out;
  }

  /** Waits for {@code latch} without throwing: for tasks that start together. */
  static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void requireLoopback(String url) {
    Properties p = Driver.parseURL(url, null);
    if (p == null) {
      throw new IllegalStateException("SLUICE_POSTGRES_URL is not a PostgreSQL JDBC URL: " + url);
    }
    for (String host : p.getProperty("PGHOST", "localhost").split(",")) {
      try {
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
          throw new IllegalStateException(
              "SLUICE_POSTGRES_URL names host " + host + "; tests only use a loopback server");
        }
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException("SLUICE_POSTGRES_URL names unknown host " + host, e);
      }
    }
  }
}
