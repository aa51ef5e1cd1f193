/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * What listens on a channel of a {@link Listener}'s dedicated connection: a limiter pool's view, or
 * a workflow store's. Called on the listener thread; each method is short and does not block on
 * anything but its own statement.
 */
interface Subscriber {
  /**
   * A NOTIFY on the subscriber's channel.
   *
   * @param payload the notification's payload
   */
  void onNotify(String payload);

  /** Notifications may have been missed (the connection was replaced): every owner looks again. */
  void wakeAll();

  /**
   * Looks, at each heartbeat, for owners of other JVMs that died without a word (their lock is free
   * or their heartbeat lapsed), and wakes this JVM's owners if one concerns them.
   *
   * @param c the listener's connection, in auto-commit mode
   * @param local this JVM's owners, which are alive whatever their locks say
   * @throws SQLException if the query failed
   */
  void probeDeadOwners(Connection c, Set<String> local) throws SQLException;
}
