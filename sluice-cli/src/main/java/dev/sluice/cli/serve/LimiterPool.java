/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.Limiter;
import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A limiter pool the console shows: a SQLite pool directory or a PostgreSQL pool, and a limiter
 * opened on it with the configuration stored there, through which the console reads ({@link
 * Limiter#inspect}, {@link Limiter#maintenance}) and drains. The console never admits work through
 * it.
 *
 * @param key how the API names the pool: a directory's absolute path, or {@code
 *     postgres:SCHEMA.PREFIX:NAME}
 * @param name the short name the page shows: the directory's name, or the pool's
 * @param where the fields that say where the pool lives, as {@code sluice pool status} prints them
 *     ({@code poolDir}; or {@code store}, {@code pool}, {@code schema}, {@code tablePrefix}), in
 *     order, plus {@code where}, one line for people
 * @param dir the SQLite pool's directory, which the console follows by its files; empty for a pool
 *     followed through {@code watch}
 * @param limiter the limiter, open while the console runs (the caller closes it)
 * @param watch the console's {@linkplain PoolWatch watch} of the pool, through which it also reads
 *     it; empty for a directory (the caller closes it)
 */
public record LimiterPool(
    String key,
    String name,
    Map<String, String> where,
    Optional<Path> dir,
    Limiter limiter,
    Optional<PoolWatch> watch) {
  /** Checks the components. */
  public LimiterPool {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(name, "name");
    where = Map.copyOf(where);
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(limiter, "limiter");
    Objects.requireNonNull(watch, "watch");
  }

  /** A SQLite pool in {@code dir}. */
  public static LimiterPool directory(Path dir, Limiter limiter) {
    Path abs = dir.toAbsolutePath().normalize();
    return new LimiterPool(
        abs.toString(),
        String.valueOf(abs.getFileName()),
        Map.of("poolDir", abs.toString(), "where", abs.toString()),
        Optional.of(dir),
        limiter,
        Optional.empty());
  }

  /**
   * A PostgreSQL pool, watched through {@code watch}.
   *
   * @param location its {@code store}, {@code pool}, {@code schema} and {@code tablePrefix}
   */
  public static LimiterPool postgres(
      Map<String, String> location, Limiter limiter, PoolWatch watch) {
    String pool = location.get("pool");
    String tables = location.get("schema") + "." + location.get("tablePrefix");
    Map<String, String> where = new HashMap<>(location);
    where.put("where", "PostgreSQL " + tables + "*");
    return new LimiterPool(
        "postgres:" + tables + ":" + pool,
        pool,
        where,
        Optional.empty(),
        limiter,
        Optional.of(watch));
  }

  /** The {@link #where} fields as a new JSON object, keys sorted. */
  JsonObject describe() {
    JsonObject json = GateJson.object();
    where.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> json.put(e.getKey(), e.getValue()));
    return json;
  }
}
