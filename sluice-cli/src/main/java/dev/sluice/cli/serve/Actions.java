/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.cli.JsonObject;

/**
 * What the console's buttons do, as the {@code sluice} verbs of the same names do it; the answers
 * are the verbs' {@code --json} answers. Implementations are thread-safe (each request runs on a
 * thread of its own) and throw what the gate throws ({@link dev.sluice.gate.GateException}, {@link
 * IllegalArgumentException}) for the console to answer as an error.
 */
public interface Actions {
  /**
   * Withdraws a waiting (queued, offered or paused) request, as {@code sluice cancel} does.
   *
   * @param requestId the request
   */
  JsonObject cancel(String requestId);

  /**
   * Releases a held permit as an operator, as {@code sluice force-release [--kill]} does. Blocks,
   * with {@code kill}, while the permit's process group is stopped (up to twice the grace period).
   *
   * @param requestId the request holding the permit
   * @param kill whether to stop the permit's process group first (SIGTERM, then SIGKILL)
   * @param reason why, recorded in the event
   * @throws InterruptedException if interrupted while the group is being stopped
   */
  JsonObject forceRelease(String requestId, boolean kill, String reason)
      throws InterruptedException;

  /**
   * Changes (or creates) a pool's capacity, as {@code sluice pool set} does.
   *
   * @param pool the pool
   * @param capacity the new capacity
   * @param reason why, kept in the history
   */
  JsonObject setCapacity(String pool, int capacity, String reason);
}
