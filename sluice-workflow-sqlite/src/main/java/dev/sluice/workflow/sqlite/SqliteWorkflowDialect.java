/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.sqlite;

import dev.sluice.workflow.jdbc.WorkflowDialect;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/**
 * SQLite's SQL for the workflow rows. Units of work run one at a time under the directory's gate,
 * so a claim needs no row lock; the tables are those every store of schema 2 was created with,
 * rendered byte for byte as before the JDBC split.
 *
 * <p>Stateless and thread-safe.
 */
final class SqliteWorkflowDialect implements WorkflowDialect {
  static final SqliteWorkflowDialect INSTANCE = new SqliteWorkflowDialect();

  private SqliteWorkflowDialect() {}

  @Override
  public String type(ColumnType type) {
    return switch (type) {
      case INT, LONG -> "INTEGER";
      case TEXT -> "TEXT";
      case BYTES -> "BLOB";
      case IDENTITY -> "INTEGER PRIMARY KEY AUTOINCREMENT";
    };
  }

  @Override
  public String keyOrderedTable() {
    return " WITHOUT ROWID";
  }

  @Override
  public String upsert(String table, List<String> columns, List<String> key) {
    // The key is part of the columns: SQLite replaces the row whose key collides.
    return "INSERT OR REPLACE INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") VALUES ("
        + String.join(", ", Collections.nCopies(columns.size(), "?"))
        + ")";
  }

  @Override
  public String limit() {
    return "LIMIT ?";
  }

  @Override
  public String claimLock() {
    return "";
  }

  @Override
  public String indexHint(String index) {
    // Named: the planner would otherwise take wf_execution_by_status for retention's IN and sort
    // every finished row.
    return " INDEXED BY " + index;
  }

  @Override
  public String beginWrite() {
    return "BEGIN IMMEDIATE";
  }

  @Override
  public boolean missingTable(SQLException e) {
    return e.getMessage() != null && e.getMessage().contains("no such table");
  }
}
