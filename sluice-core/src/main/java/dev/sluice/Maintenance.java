/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice;

import java.time.Duration;
import java.util.Collection;

/**
 * The pool-wide drain, for maintenance of whatever the pool protects: {@link #drain()} makes every
 * process on the pool refuse new work with {@link PoolDrainingException} while work accepted before
 * goes on; {@link #await} blocks until that work has ended; {@link #resume} lets new work in again.
 * Drains are numbered by generation and kept in the pool's store, also while every client is
 * closed, so a drain survives restarts; only the generation that is running can be resumed.
 *
 * <pre>{@code
 * long generation = limiter.maintenance().drain().generation();
 * if (limiter.maintenance().await(generation, Duration.ofMinutes(5))) {
 *   migrate();
 * }
 * limiter.maintenance().resume(generation);
 * }</pre>
 *
 * <p>Thread-safe. Every method blocks on the store; {@link #await} also blocks until the drain
 * settles, sleeping until a change of the pool is announced (never polling).
 */
public interface Maintenance {
  /** Returns the drain, cooldown and circuit state. */
  ControlStatus status();

  /** Starts a drain with a new generation, or returns the running one's status. */
  ControlStatus drain();

  /**
   * Ends the drain of {@code generation}.
   *
   * @param generation the running drain's generation
   * @return the status after
   * @throws StaleDrainException if {@code generation} is not the running drain; nothing changes
   * @throws IllegalArgumentException if {@code generation} is below 1
   */
  ControlStatus resume(long generation);

  /**
   * Waits until the drain of {@code generation} has settled: no work accepted before it holds a
   * lease or waits in the queue.
   *
   * @param generation the running drain's generation
   * @param timeout the longest wait
   * @return true if it settled, false if the timeout passed first (the drain goes on either way)
   * @throws StaleDrainException if {@code generation} is not, or stops being, the running drain
   * @throws InterruptedException if interrupted while waiting
   */
  boolean await(long generation, Duration timeout) throws InterruptedException;

  /**
   * Accepts that operations left unconfirmed by a dead owner ({@link ControlStatus#unconfirmed()})
   * may or may not have taken effect, so the drain of {@code generation} can settle; all or none.
   * The records stay, acknowledged, until the drain is resumed, so this drain never reports {@link
   * ControlStatus#clean() clean}; a later one can.
   *
   * @param generation the latest drain's generation
   * @param operationIds the unconfirmed operations, at least one
   * @param reason why their uncertainty is accepted, not blank
   * @return the status after
   * @throws StaleDrainException if {@code generation} is not the running drain (a newer one began,
   *     or it was resumed); nothing changes
   * @throws IllegalArgumentException if an id names no unconfirmed operation, none is given, the
   *     reason is blank or the generation is below 1; nothing changes
   */
  ControlStatus acknowledge(long generation, Collection<String> operationIds, String reason);
}
