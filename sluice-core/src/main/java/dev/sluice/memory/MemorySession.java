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
 * An owner of an in-JVM pool. Transitions run on the calling thread under the pool's monitor. A
 * transition that changed the pool wakes the pool's other owners afterwards, on the same thread, as
 * a cross-process store's pulse would: usually there is only one owner per JVM, but a pool opened
 * through two store handles of different identity has two.
 *
 * <p>Thread-safe.
 */
final class MemorySession implements PoolSession {
  private final MemoryPool pool;
  private final String ownerId;
  private final TimeSource clock;
  private volatile Runnable onChange;

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
    R result;
    boolean changed;
    synchronized (pool) {
      PoolState state = pool.state();
      result = transition.apply(state, TransitionContext.at(clock.wallMillis()));
      changed = state.isDirty();
      state.markClean();
    }
    if (changed) {
      pool.changedBy(this);
    }
    return result;
  }

  void wake() {
    Runnable action = onChange;
    if (action != null) {
      action.run();
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
    this.onChange = onChange;
  }

  @Override
  public void close(Transition<?> retire) {
    pool.leave(this);
    execute(retire);
  }

  @Override
  public void close() {
    pool.leave(this);
  }
}
