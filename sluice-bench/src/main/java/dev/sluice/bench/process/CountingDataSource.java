/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * A data source that counts what its connections send: each {@code execute…} call of a statement
 * and each {@code commit} or {@code rollback} is one round trip to the server (pgJDBC sends a
 * statement string of several {@code ;}-separated statements in one), and the SQL statements in
 * them, by their text. Used to count a workflow execution's statements, not to time anything.
 *
 * <p>Thread-safe: the counters are shared by every connection.
 */
final class CountingDataSource {
  private final DataSource target;
  private final LongAdder roundTrips = new LongAdder();
  private final LongAdder statements = new LongAdder();
  private final LongAdder commits = new LongAdder();
  private final Map<String, LongAdder> bySql = new ConcurrentHashMap<>();
  private volatile java.util.Queue<String> trace;
  private volatile long traceStart;

  CountingDataSource(DataSource target) {
    this.target = target;
  }

  /** What was counted so far. */
  record Counts(long roundTrips, long statements, long commits, Map<String, Long> bySql) {
    /** What was counted between {@code before} and this. */
    Counts minus(Counts before) {
      Map<String, Long> diff = new TreeMap<>();
      bySql.forEach(
          (sql, n) -> {
            long d = n - before.bySql.getOrDefault(sql, 0L);
            if (d != 0) {
              diff.put(sql, d);
            }
          });
      return new Counts(
          roundTrips - before.roundTrips,
          statements - before.statements,
          commits - before.commits,
          diff);
    }
  }

  Counts counts() {
    Map<String, Long> sql = new TreeMap<>();
    bySql.forEach((k, v) -> sql.put(k, v.sum()));
    return new Counts(roundTrips.sum(), statements.sum(), commits.sum(), sql);
  }

  /**
   * Starts recording each statement in order, with its thread and time; {@link #traced} ends it.
   */
  void startTrace() {
    traceStart = System.nanoTime();
    trace = new java.util.concurrent.ConcurrentLinkedQueue<>();
  }

  /** The statements recorded since {@link #startTrace}, in order; recording ends. */
  List<String> traced() {
    List<String> lines = new java.util.ArrayList<>(trace);
    trace = null;
    return lines;
  }

  /** The counting data source. */
  DataSource dataSource() {
    return proxy(DataSource.class, target, (m, args, result) -> wrapConnection(result));
  }

  private Object wrapConnection(Object result) {
    if (!(result instanceof Connection c)) {
      return result;
    }
    return proxy(
        Connection.class,
        c,
        (m, args, out) -> {
          String name = m.getName();
          if ((name.equals("commit") || name.equals("rollback")) && args == null) {
            roundTrips.increment();
            count(name.toUpperCase(java.util.Locale.ROOT));
          }
          if (out instanceof PreparedStatement ps && name.equals("prepareStatement")) {
            String sql = (String) args[0];
            return proxy(PreparedStatement.class, ps, (sm, sargs, sout) -> counted(sm, sql, sargs));
          }
          if (out instanceof Statement st && name.equals("createStatement")) {
            return proxy(Statement.class, st, (sm, sargs, sout) -> counted(sm, null, sargs));
          }
          return out;
        });
  }

  private Object counted(Method m, String prepared, Object[] args) {
    if (m.getName().startsWith("execute")) {
      String sql = prepared != null ? prepared : (String) args[0];
      roundTrips.increment();
      for (String part : sql.split(";")) {
        if (!part.isBlank()) {
          count(part.strip());
        }
      }
    }
    return null;
  }

  private void count(String sql) {
    if (trace != null) {
      trace.add(
          String.format(
              "%9.3f ms  %-28s %s",
              (System.nanoTime() - traceStart) / 1e6,
              Thread.currentThread().getName(),
              sql.length() > 150 ? sql.substring(0, 150) : sql));
    }
    statements.increment();
    String key = sql.length() > 90 ? sql.substring(0, 90) : sql;
    bySql.computeIfAbsent(key, k -> new LongAdder()).increment();
    if (sql.equalsIgnoreCase("COMMIT")) {
      commits.increment();
    }
  }

  /** What a proxy does after the real call: its result, or a wrapped one ({@code null}: as is). */
  @FunctionalInterface
  private interface After {
    Object apply(Method m, Object[] args, Object result) throws Exception;
  }

  private static <T> T proxy(Class<T> type, Object real, After after) {
    InvocationHandler h =
        (p, m, args) -> {
          Object result;
          try {
            result = m.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          Object wrapped = after.apply(m, args, result);
          return wrapped != null ? wrapped : result;
        };
    return type.cast(
        Proxy.newProxyInstance(
            CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, h));
  }
}
