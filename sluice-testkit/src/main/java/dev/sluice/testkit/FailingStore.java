/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import dev.sluice.spi.Transition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and makes its next transitions fail, to test how a limiter behaves when its
 * store breaks: {@link #failNext(int)} fails that many transitions, then the store works again.
 *
 * <p>Thread-safe.
 */
public final class FailingStore implements PoolStore {
  private final PoolStore delegate;
  private final AtomicInteger failures = new AtomicInteger();

  /**
   * Wraps a store.
   *
   * @param delegate the real store
   */
  public FailingStore(PoolStore delegate) {
    this.delegate = delegate;
  }

  /** Makes the next {@code n} transitions fail with a {@link BackendFailureException}. */
  public void failNext(int n) {
    failures.set(n);
  }

  private void maybeFail() {
    if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new BackendFailureException("injected failure of " + delegate.poolName(), null);
    }
  }

  @Override
  public String poolName() {
    return delegate.poolName();
  }

  @Override
  public String poolIdentity() {
    return "failing:" + delegate.poolIdentity();
  }

  @Override
  public TimeSource clock() {
    return delegate.clock();
  }

  @Override
  public PoolSession open(LimiterConfig config) {
    PoolSession session = delegate.open(config);
    return new PoolSession() {
      @Override
      public String ownerId() {
        return session.ownerId();
      }

      @Override
      public <R> R execute(Transition<R> transition) {
        maybeFail();
        return session.execute(transition);
      }

      @Override
      public <R> CompletableFuture<R> submit(Transition<R> transition) {
        try {
          maybeFail();
        } catch (BackendFailureException e) {
          return CompletableFuture.failedFuture(e);
        }
        return session.submit(transition);
      }

      @Override
      public void onChange(Runnable onChange) {
        session.onChange(onChange);
      }

      @Override
      public void close(Transition<?> retire) {
        session.close(retire);
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }
}
