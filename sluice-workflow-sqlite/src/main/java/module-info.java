/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The SQLite workflow store ({@code dev.sluice.workflow.sqlite}): executions, steps and timers in a
 * directory shared by every worker process on the machine. The rows and schema are the JDBC core's
 * ({@code dev.sluice.workflow.jdbc}) in SQLite's dialect; the session, its gate, owners and pulse
 * are the coordination package of {@code sluice-sqlite}.
 */
module dev.sluice.workflow.sqlite {
  requires transitive dev.sluice.workflow;
  requires dev.sluice.workflow.jdbc;
  requires dev.sluice.sqlite;
  requires java.sql;

  exports dev.sluice.workflow.sqlite;
}
