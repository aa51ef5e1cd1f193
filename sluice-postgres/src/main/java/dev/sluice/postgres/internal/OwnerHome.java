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
   * After the listener's connection was replaced and it took an owner's lock again: whether the
   * owner's row is still there (if not, another JVM reclaimed the owner meanwhile). A home whose
   * rows record the server start under which the lock was taken records the current one, so that a
   * restart's freed locks do not prove its owners dead.
   *
   * @param c the listener's connection, which holds the owner's lock again
   * @param owner the owner's id
   * @return whether the row is there
   * @throws SQLException if the statement failed
   */
  boolean relocked(Connection c, String owner) throws SQLException;

  /**
   * An owner's heartbeat was written by a statement sent at {@code untilNanos} minus its timeout;
   * it lasts at least until {@code untilNanos} on this JVM's clock. A home that guards against
   * answers arriving after the heartbeat may have lapsed keeps it; the default ignores it. Called
   * on the listener thread: must not block.
   *
   * @param owner the owner's id
   * @param untilNanos the heartbeat's end by {@link System#nanoTime()}
   */
  default void renewed(String owner, long untilNanos) {}

  /**
   * The store declared one of this home's owners dead (its row is gone or its lock was taken); the
   * owner has been dropped from the heartbeats. Called on the listener thread: must not block.
   *
   * @param owner the owner's id
   */
  void ownerLost(String owner);
}
