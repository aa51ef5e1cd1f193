/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The SQLite store: a limiter pool in a directory, shared by every process on the machine ({@code
 * dev.sluice.sqlite}). The machine-local plumbing it is built on — the gate lock, pulse files,
 * owner registration and liveness — lives in {@code dev.sluice.local}, which the job gate and
 * workflow stores will share once they exist; it is not exported to users.
 */
module dev.sluice.sqlite {
  requires transitive dev.sluice;
  requires java.sql;
  requires org.xerial.sqlitejdbc;
  requires com.fasterxml.jackson.core;

  exports dev.sluice.sqlite;
  exports dev.sluice.local to
      dev.sluice.gate,
      dev.sluice.cli,
      dev.sluice.workflow.sqlite;
}
