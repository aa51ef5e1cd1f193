/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts a dialect's names of the store's tables and indexes into SQL written with their SQLite
 * names, so that the core's statements read as plain SQL and a PostgreSQL store can still keep
 * several stores, each with its own prefix, in one schema. Only whole words are replaced, in one
 * pass over the text, so a rendered name is never rendered again.
 *
 * <p>Thread-safe (stateless).
 */
public final class SqlNames {
  /** Every table of the store, by its SQLite name. */
  public static final List<String> TABLES =
      List.of(
          "sluice_meta",
          "wf_execution",
          "wf_step",
          "wf_timer",
          "wf_document",
          "wf_waiter",
          "wf_receipt");

  /** Every index of the store, by its SQLite name. */
  public static final List<String> INDEXES =
      List.of(
          "wf_execution_by_status",
          "wf_execution_finished",
          "wf_timer_by_due",
          "wf_waiter_by_document",
          "wf_receipt_by_time");

  private static final Pattern NAME =
      Pattern.compile("\\b(" + String.join("|", TABLES) + "|" + String.join("|", INDEXES) + ")\\b");

  private SqlNames() {}

  /**
   * Returns {@code sql} with each table and index name as {@code dialect} names it.
   *
   * @param sql a statement naming tables and indexes by their SQLite names
   * @param dialect the database's dialect
   * @return the statement to run
   */
  public static String render(String sql, WorkflowDialect dialect) {
    Matcher m = NAME.matcher(sql);
    StringBuilder out = new StringBuilder(sql.length() + 64);
    while (m.find()) {
      String name = m.group(1);
      String rendered = TABLES.contains(name) ? dialect.table(name) : dialect.index(name);
      m.appendReplacement(out, Matcher.quoteReplacement(rendered));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Prepares {@code sql} on {@code db} with the dialect's names. */
  static PreparedStatement prepare(Connection db, WorkflowDialect dialect, String sql)
      throws SQLException {
    return db.prepareStatement(render(sql, dialect));
  }
}
