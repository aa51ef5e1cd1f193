/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The shared core of the SQL workflow stores ({@code dev.sluice.workflow.jdbc}): the workflow rows
 * and their schema over JDBC, the JDBC {@link dev.sluice.workflow.spi.WorkflowTransaction}, and the
 * small {@link dev.sluice.workflow.jdbc.WorkflowDialect} in which databases differ. A store module
 * (SQLite now, PostgreSQL next) adds its connection, its locking and its wakes; this module depends
 * on no store module.
 */
module dev.sluice.workflow.jdbc {
  requires transitive dev.sluice.workflow;
  requires transitive java.sql;
  requires com.fasterxml.jackson.core;

  exports dev.sluice.workflow.jdbc;
}
