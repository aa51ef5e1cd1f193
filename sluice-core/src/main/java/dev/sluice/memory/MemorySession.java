/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.TimeSource;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import dev.sluice.spi.Transition;
import dev.sluice.spi.TransitionContext;
import java.util.concurrent.CompletableFuture;

/**
 * An owner of an in-JVM pool. Transitions run on the calling thread under the pool's monitor; all
 * owners live in this JVM and see each other's changes directly, so nothing ever needs waking.
 *
 * <p>Thread-safe.
 */
final class MemorySession implements PoolSession {
  private final MemoryPool pool;
  private final String ownerId;
  private final TimeSource clock;

  MemorySession(MemoryPool pool, String ownerId, TimeSource clock) {
    this.pool = pool;
    this.ownerId = ownerId;
    this.clock = clock;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> R execute(Transition<R> transition) {
    synchronized (pool) {
      PoolState state = pool.state();
      R result = transition.apply(state, TransitionContext.at(clock.wallMillis()));
      state.markClean();
      return result;
    }
  }

  @Override
  public <R> CompletableFuture<R> submit(Transition<R> transition) {
    try {
      return CompletableFuture.completedFuture(execute(transition));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void onChange(Runnable onChange) {
    // Every change to an in-JVM pool is made through a session of this JVM's one owner.
  }

  @Override
  public void close(Transition<?> retire) {
    execute(retire);
  }

  @Override
  public void close() {}
}
