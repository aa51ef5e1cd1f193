/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The PostgreSQL store: a limiter pool in a database, shared by every process on every machine that
 * reaches it ({@code dev.sluice.postgres}). Its plumbing (schema versions, the dedicated connection
 * for wakes and owner liveness, the batch transactions) is in an internal package that is not
 * exported.
 */
module dev.sluice.postgres {
  requires transitive dev.sluice;
  requires transitive java.sql;
  requires org.postgresql.jdbc;

  exports dev.sluice.postgres;
}
