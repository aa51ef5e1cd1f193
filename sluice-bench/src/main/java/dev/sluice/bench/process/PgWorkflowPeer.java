/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

/**
 * The workflow engines {@link PgWorkflowBench} runs side by side on one PostgreSQL server, each in
 * a schema of its own.
 */
enum PgWorkflowPeer {
  /** Sluice's {@code PostgresWorkflowStore} under a {@code WorkflowRuntime}. */
  SLUICE("Sluice PostgresWorkflowStore", "sluice_wfbench"),
  /** DBOS Transact for Java on a queue. */
  DBOS("DBOS Transact " + dev.dbos.transact.DBOS.version(), "dbos_wfbench");

  private final String label;
  private final String schema;

  PgWorkflowPeer(String label, String schema) {
    this.label = label;
    this.schema = schema;
  }

  /** The engine's name in the report. */
  String label() {
    return label;
  }

  /** The schema its measured runs use, dropped before each row. */
  String schema() {
    return schema;
  }

  /** The schema a worker's private warm-up uses. */
  String warmSchema(int worker) {
    return schema + "_warm" + worker;
  }
}
