/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.concurrent.CompletableFuture;

/**
 * One owner's connection to a pool. A JVM holds one session per pool and shares it among all its
 * limiters on that pool; leases and queue entries carry the session's {@link #ownerId()}, and when
 * the owner dies (its process exits) the store reclaims them.
 *
 * <p>Implementations must be thread-safe. Transitions are applied one at a time per pool, in the
 * order the store takes them, each seeing the effects of all earlier ones.
 */
public interface PoolSession extends AutoCloseable {
  /** Returns this owner's id, unique among the pool's owners, never reused. */
  String ownerId();

  /**
   * Applies a transition under the store's lock or transaction, persists the state if the
   * transition changed it, wakes the pool's other owners if it did, and returns the transition's
   * result. Blocks until then.
   *
   * @param transition a function of the state and the store's time, without I/O
   * @param <R> the result type
   * @return the transition's result
   * @throws dev.sluice.BackendFailureException if the store failed; the state is as it was
   */
  <R> R execute(Transition<R> transition);

  /**
   * Applies a transition like {@link #execute} without blocking the caller. A store may apply
   * several submitted transitions in one transaction, but applies one session's transitions in the
   * order they were submitted or executed, so a later {@code execute} sees an earlier {@code
   * submit}. The future completes on a store thread or the calling thread; continuations must be
   * short.
   *
   * @param transition a function of the state and the store's time, without I/O
   * @param <R> the result type
   * @return the transition's result
   */
  <R> CompletableFuture<R> submit(Transition<R> transition);

  /**
   * Sets the action to run when another owner may have changed the pool or died. The store calls it
   * from its own thread (the memory store: from the thread of the other owner's transition, after
   * it committed); it is never called for this session's own transitions.
   *
   * @param onChange a short, non-blocking action
   */
  void onChange(Runnable onChange);

  /**
   * Retires the owner: applies {@code retire} (which removes whatever the owner still holds), then
   * releases the owner's resources. Blocks until done.
   *
   * @param retire the transition that removes the owner's leases and queue entries
   */
  void close(Transition<?> retire);

  /** Closes without a retire transition; the store reclaims what the owner held. */
  @Override
  void close();
}
