/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.workflow.jdbc;

import java.sql.SQLException;
import java.util.List;

/**
 * What differs between the databases a workflow store runs on, as SQL fragments (db-scheduler's
 * {@code JdbcCustomization} is the model): column types, upserts, limits, the claim's lock clause,
 * how a writing transaction begins, and how a missing table is reported. Everything else in {@link
 * WorkflowRows} and {@link WorkflowTables} is SQL that SQLite and PostgreSQL both read.
 *
 * <p>Implementations are immutable and thread-safe; nothing here touches a connection.
 */
public interface WorkflowDialect {
  /** The column types the schema uses, rendered per database by {@link #type}. */
  enum ColumnType {
    /** A 32-bit integer (SQLite {@code INTEGER}, PostgreSQL {@code INTEGER}). */
    INT,
    /**
     * A 64-bit integer, such as a store time (SQLite {@code INTEGER}, PostgreSQL {@code BIGINT}).
     */
    LONG,
    /** Text, such as a JSON payload (both {@code TEXT}). */
    TEXT,
    /** Bytes (SQLite {@code BLOB}, PostgreSQL {@code BYTEA}); no table of schema 2 has one. */
    BYTES,
    /**
     * A generated 64-bit primary key (SQLite {@code INTEGER PRIMARY KEY AUTOINCREMENT}, PostgreSQL
     * an identity column); no table of schema 2 has one.
     */
    IDENTITY
  }

  /**
   * Returns how one of the store's tables is named in SQL: SQLite the name itself (a file is one
   * store); PostgreSQL the name with the store's prefix, qualified by its schema, so that several
   * stores share a database. The SQL of the core names tables by their SQLite names; {@link
   * SqlNames} puts this in their place.
   *
   * @param name a table's SQLite name, such as {@code wf_execution}
   * @return the name as SQL
   */
  default String table(String name) {
    return name;
  }

  /**
   * Returns how one of the store's indexes is named in a {@code CREATE INDEX}: SQLite the name
   * itself; PostgreSQL the name with the store's prefix (an index lives in its table's schema).
   *
   * @param name an index's SQLite name, such as {@code wf_timer_by_due}
   * @return the name as SQL
   */
  default String index(String name) {
    return name;
  }

  /**
   * Returns the type of a column, with any constraint the type implies.
   *
   * @param type the column type
   * @return the SQL type
   */
  String type(ColumnType type);

  /**
   * Returns what ends a {@code CREATE TABLE} of a table stored in its primary key's order: SQLite
   * {@code " WITHOUT ROWID"}, nothing where tables have no row id to leave out.
   */
  String keyOrderedTable();

  /**
   * Returns a statement that inserts a row or replaces the one with the same key, with one {@code
   * ?} per column in the order given.
   *
   * @param table the table
   * @param columns every column, key columns included
   * @param key the primary key's columns
   * @return SQLite {@code INSERT OR REPLACE …}; PostgreSQL {@code INSERT … ON CONFLICT (key) DO
   *     UPDATE SET …}
   */
  String upsert(String table, List<String> columns, List<String> key);

  /** Returns the clause that ends a query taking at most {@code ?} rows: {@code LIMIT ?}. */
  String limit();

  /**
   * Returns what a claim's query ends with so that concurrent claims take different rows: nothing
   * where units of work run one at a time (SQLite, under its gate), {@code FOR UPDATE SKIP LOCKED}
   * where they run concurrently (PostgreSQL). Appended after {@link #limit()}.
   */
  String claimLock();

  /**
   * Returns what ends a read of one execution in a unit run by {@link
   * dev.sluice.workflow.spi.WorkflowSession#transactOn}, so that units of the same execution run
   * one at a time: nothing where every unit runs alone (SQLite, under its gate), {@code FOR UPDATE}
   * where such units run concurrently (PostgreSQL: the row stays locked until the transaction
   * ends).
   */
  default String rowLock() {
    return "";
  }

  /**
   * Whether claims read ahead: the driver runs a prepared statement of several {@code ;}-separated
   * statements in one round trip and the database updates rows picked by a common table expression
   * (PostgreSQL), so a claim reads its due timers with the owners of running claims, and claims
   * with one statement that also reads the claimed executions' steps and the next timer, each kept
   * for the unit until it writes. False (SQLite, one statement per call): each read is its own
   * statement.
   *
   * @return whether claims read ahead
   */
  default boolean readsAhead() {
    return false;
  }

  /**
   * Returns a hint that a query read the named index, or nothing: SQLite's planner needs {@code
   * INDEXED BY} for retention's partial index; PostgreSQL plans without it.
   *
   * @param index the index
   * @return the clause, placed right after the table name
   */
  String indexHint(String index);

  /**
   * Returns the statement that begins a transaction that will write: SQLite {@code BEGIN IMMEDIATE}
   * (its write lock at once, so no later upgrade can fail), PostgreSQL {@code BEGIN} (row locks are
   * taken as rows are written).
   */
  String beginWrite();

  /**
   * Whether a failure says that a table does not exist: a database without the store's tables is
   * not a store, which is not an error of the read.
   *
   * @param e a failure of a query
   * @return true if the query named a missing table
   */
  boolean missingTable(SQLException e);
}
