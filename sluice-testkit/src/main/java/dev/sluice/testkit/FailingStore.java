/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and makes its next transitions fail, to test how a limiter behaves when its
 * store breaks: {@link #failNext(int)} fails that many commands, then the store works again.
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

  /** Makes the next {@code n} commands fail with a {@link BackendFailureException}. */
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
      public <R> PoolOutcome<R> execute(PoolCommand<R> command) {
        maybeFail();
        return session.execute(command);
      }

      @Override
      public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
        try {
          maybeFail();
        } catch (BackendFailureException e) {
          return CompletableFuture.failedFuture(e);
        }
        return session.submit(command);
      }

      @Override
      public void onChange(Runnable onChange) {
        session.onChange(onChange);
      }

      @Override
      public long appliedSequence() {
        return session.appliedSequence();
      }

      @Override
      public void retire() {
        session.retire();
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }
}
