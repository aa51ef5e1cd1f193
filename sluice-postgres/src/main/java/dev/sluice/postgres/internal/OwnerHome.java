/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where an owner of this JVM is registered: the table of its row (with {@code owner_id}, {@code
 * lock_key} and {@code expires_at} columns), and who is told when the store declares it dead. A
 * limiter pool's view and a workflow store's are homes; {@link Heartbeats} keeps their owners
 * alive.
 */
interface OwnerHome {
  /** The qualified table of the owners' rows. */
  String ownersTable();

  /**
   * Inserts a new owner's row, its heartbeat lasting {@code timeoutMillis} by the server's clock.
   *
   * @param c the listener's connection, which holds the owner's lock
   * @param owner the owner's id
   * @param lockKey its advisory lock key
   * @param timeoutMillis its heartbeat timeout
   * @throws SQLException if the insert failed
   */
  void insertOwner(Connection c, String owner, long lockKey, long timeoutMillis)
      throws SQLException;

  /**
   * The store declared one of this home's owners dead (its row is gone or its lock was taken); the
   * owner has been dropped from the heartbeats. Called on the listener thread: must not block.
   *
   * @param owner the owner's id
   */
  void ownerLost(String owner);
}
