/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.workflow.jdbc.WorkflowDialect;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * PostgreSQL's SQL for the workflow rows of one schema and table prefix: 64-bit times as {@code
 * bigint}, upserts as {@code INSERT … ON CONFLICT … DO UPDATE}, claims that lock the rows they take
 * and skip rows another transaction holds ({@code FOR UPDATE SKIP LOCKED}), and units of one
 * execution that lock its row at their first read ({@code FOR UPDATE}).
 *
 * <p>Immutable and thread-safe.
 */
final class PgWorkflowDialect implements WorkflowDialect {
  private static final String UNDEFINED_TABLE = "42P01";

  private final Tables tables;

  PgWorkflowDialect(Tables tables) {
    this.tables = tables;
  }

  @Override
  public String table(String name) {
    return tables.workflowTable(name);
  }

  @Override
  public String index(String name) {
    return tables.workflowIndex(name);
  }

  @Override
  public String type(ColumnType type) {
    return switch (type) {
      case INT -> "integer";
      case LONG -> "bigint";
      case TEXT -> "text";
      case BYTES -> "bytea";
      case IDENTITY -> "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
    };
  }

  @Override
  public String keyOrderedTable() {
    return "";
  }

  @Override
  public String upsert(String table, List<String> columns, List<String> key) {
    List<String> sets = new ArrayList<>();
    for (String c : columns) {
      if (!key.contains(c)) {
        sets.add(c + " = EXCLUDED." + c);
      }
    }
    return "INSERT INTO "
        + table
        + " ("
        + String.join(", ", columns)
        + ") VALUES ("
        + String.join(", ", Collections.nCopies(columns.size(), "?"))
        + ") ON CONFLICT ("
        + String.join(", ", key)
        + ") DO "
        + (sets.isEmpty() ? "NOTHING" : "UPDATE SET " + String.join(", ", sets));
  }

  @Override
  public String limit() {
    return "LIMIT ?";
  }

  @Override
  public String claimLock() {
    return " FOR UPDATE SKIP LOCKED";
  }

  @Override
  public String rowLock() {
    return " FOR UPDATE";
  }

  @Override
  public boolean readsAhead() {
    return true;
  }

  @Override
  public String indexHint(String index) {
    return "";
  }

  @Override
  public String beginWrite() {
    return "BEGIN";
  }

  @Override
  public boolean missingTable(SQLException e) {
    return UNDEFINED_TABLE.equals(e.getSQLState());
  }
}
