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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store to test how a limiter behaves when its store breaks or its owner dies: {@link
 * #failNext(int)} fails that many commands, then the store works again; {@link #killOwners()}
 * closes the owners opened through it as their process's death would, without retiring them.
 *
 * <p>Thread-safe.
 */
public final class FailingStore implements PoolStore {
  private final PoolStore delegate;
  private final AtomicInteger failures = new AtomicInteger();
  private volatile BackendFailureException.Kind kind = BackendFailureException.Kind.PERMANENT;
  private final List<PoolSession> sessions = new CopyOnWriteArrayList<>();

  /**
   * Wraps a store.
   *
   * @param delegate the real store
   */
  public FailingStore(PoolStore delegate) {
    this.delegate = delegate;
  }

  /**
   * Makes the next {@code n} commands fail with a permanent {@link BackendFailureException}, as a
   * damaged store would.
   */
  public void failNext(int n) {
    kind = BackendFailureException.Kind.PERMANENT;
    failures.set(n);
  }

  /**
   * Makes the next {@code n} commands fail with a transient {@link BackendFailureException}, as a
   * lost connection or a restarting server would; then the store answers again.
   */
  public void failNextTransiently(int n) {
    kind = BackendFailureException.Kind.TRANSIENT;
    failures.set(n);
  }

  /**
   * Ends every owner opened through this store as if its process died: each session closes without
   * retiring, so the store must reclaim what the owner held. The limiters on those owners are dead
   * from then on; the test abandons them.
   */
  public void killOwners() {
    for (PoolSession s : sessions) {
      s.close();
    }
  }

  private void maybeFail() {
    if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new BackendFailureException("injected failure of " + delegate.poolName(), null, kind);
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
    sessions.add(session);
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
