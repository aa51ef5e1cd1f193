/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The job gate ({@code dev.sluice.gate}): named pools of capacity in weight units that admit heavy
 * commands in strict FIFO order, with offers, claims and process tracking, stored in a SQLite home
 * shared by every process of the machine. Its transitions ({@code dev.sluice.gate.internal}) and
 * its store ({@code dev.sluice.gate.store}) are not exported.
 */
module dev.sluice.gate {
  requires transitive dev.sluice;
  requires dev.sluice.sqlite;
  requires java.sql;
  requires org.xerial.sqlitejdbc;
  requires com.fasterxml.jackson.core;

  exports dev.sluice.gate;
}
