/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The PostgreSQL stores: a limiter pool and a workflow store in a database, shared by every process
 * on every machine that reaches it ({@code dev.sluice.postgres}). The workflow store runs the JDBC
 * core of the SQL workflow stores ({@code dev.sluice.workflow.jdbc}) in PostgreSQL's dialect. Its
 * plumbing (schema versions, the dedicated connection for wakes and owner liveness, the batch
 * transactions) is in an internal package that is not exported.
 */
module dev.sluice.postgres {
  requires transitive dev.sluice;
  requires transitive dev.sluice.workflow;
  requires transitive java.sql;
  requires dev.sluice.workflow.jdbc;
  requires org.postgresql.jdbc;

  exports dev.sluice.postgres;
}
