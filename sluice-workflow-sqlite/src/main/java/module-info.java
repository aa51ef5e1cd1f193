/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The SQLite workflow store ({@code dev.sluice.workflow.sqlite}): executions, steps and timers in a
 * directory shared by every worker process on the machine, on the coordination package of {@code
 * sluice-sqlite} (gate lock, pulse, owners).
 */
module dev.sluice.workflow.sqlite {
  requires transitive dev.sluice.workflow;
  requires dev.sluice.sqlite;
  requires java.sql;
  requires com.fasterxml.jackson.core;

  exports dev.sluice.workflow.sqlite;
}
