/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import dev.sluice.LimiterConfig;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.postgres.PostgresStore;
import dev.sluice.spi.PoolStore;
import dev.sluice.sqlite.SqliteStore;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where the limiter pool of a {@code sluice pool} drain verb lives: a SQLite pool directory, or a
 * named pool in a PostgreSQL database. Exactly one of the two is given (picocli enforces it); the
 * pool is never created.
 *
 * <p>Not thread-safe: filled by picocli, then read by one invocation.
 */
final class LimiterPoolLocation {
  @Option(
      names = "--pool-dir",
      paramLabel = "DIR",
      required = true,
      description = "A SQLite limiter pool's directory (never created).")
  Path poolDir;

  @ArgGroup(exclusive = false, multiplicity = "1")
  Postgres postgres;

  /** A pool in PostgreSQL: the server, the pool's name and where its tables are. */
  static final class Postgres {
    @Option(
        names = "--postgres-url",
        paramLabel = "URL",
        required = true,
        description = "A PostgreSQL pool's server: jdbc:postgresql://HOST[:PORT]/DATABASE[?...].")
    String url;

    @Option(
        names = "--pool",
        paramLabel = "NAME",
        required = true,
        description = "The PostgreSQL pool's name (never created).")
    String pool;

    @Option(
        names = "--schema",
        paramLabel = "SCHEMA",
        description = "The schema of Sluice's tables (default: ${DEFAULT-VALUE}).")
    String schema = PostgresStore.DEFAULT_SCHEMA;

    @Option(
        names = "--table-prefix",
        paramLabel = "PREFIX",
        description = "The prefix of Sluice's table names (default: ${DEFAULT-VALUE}).")
    String tablePrefix = PostgresStore.DEFAULT_TABLE_PREFIX;
  }

  /** The SQLite pool in {@code poolDir}, as if given by {@code --pool-dir}. */
  static LimiterPoolLocation directory(Path poolDir) {
    LimiterPoolLocation location = new LimiterPoolLocation();
    location.poolDir = poolDir;
    return location;
  }

  /** A located pool: its store and the configuration it was created with. */
  record Located(PoolStore store, LimiterConfig config) {}

  /**
   * Finds the pool and reads its stored configuration, creating nothing.
   *
   * @throws NoSuchPoolException if there is no pool there
   * @throws IllegalArgumentException if the URL, schema or prefix is not allowed
   */
  Located locate() {
    if (postgres == null) {
      SqliteStore store = SqliteStore.directory(poolDir);
      return new Located(
          store, store.storedConfig().orElseThrow(() -> NoSuchPoolException.directory(poolDir)));
    }
    PostgresStore store =
        PostgresStore.builder(dataSource(postgres.url), postgres.pool)
            .schema(postgres.schema)
            .tablePrefix(postgres.tablePrefix)
            .build();
    Optional<LimiterConfig> config = store.storedConfig();
    return new Located(
        store, config.orElseThrow(() -> NoSuchPoolException.postgres(store.toString())));
  }

  /** The fields that say which pool an answer is about. */
  JsonObject describe() {
    JsonObject json = GateJson.object();
    fields().forEach(json::put);
    return json;
  }

  /** {@link #describe}'s fields, in order. */
  Map<String, String> fields() {
    Map<String, String> fields = new LinkedHashMap<>();
    if (postgres == null) {
      fields.put("poolDir", poolDir.toAbsolutePath().toString());
      return fields;
    }
    fields.put("store", "postgres");
    fields.put("pool", postgres.pool);
    fields.put("schema", postgres.schema);
    fields.put("tablePrefix", postgres.tablePrefix);
    return fields;
  }

  /** The PostgreSQL pool {@code pool}, as if given by {@code --postgres-url} and the rest. */
  static LimiterPoolLocation postgres(String url, String pool, String schema, String tablePrefix) {
    LimiterPoolLocation location = new LimiterPoolLocation();
    location.postgres = new Postgres();
    location.postgres.url = url;
    location.postgres.pool = pool;
    location.postgres.schema = schema;
    location.postgres.tablePrefix = tablePrefix;
    return location;
  }

  private static PGSimpleDataSource dataSource(String url) {
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "--postgres-url '"
              + url
              + "' is not a PostgreSQL JDBC URL: allowed is"
              + " jdbc:postgresql://HOST[:PORT]/DATABASE[?PARAMETERS]");
    }
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setURL(url);
    return source;
  }
}
