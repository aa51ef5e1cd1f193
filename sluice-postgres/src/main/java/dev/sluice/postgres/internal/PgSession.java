/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.SluiceException;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One owner of a PostgreSQL pool: its row and advisory lock, and its commands, which the pool
 * view's coordinator applies.
 *
 * <p>Thread-safe.
 */
public final class PgSession implements PoolSession {
  private final PgPool pool;
  private final String ownerId;
  private volatile Runnable onChange;
  private volatile Runnable watcher;
  private volatile boolean closed;

  private PgSession(PgPool pool, String ownerId) {
    this.pool = pool;
    this.ownerId = ownerId;
  }

  /**
   * Opens a session: joins this JVM's view of the pool (creating the tables and the pool if needed)
   * and registers a new owner.
   *
   * @param settings where and how
   * @param config the configuration every user must share
   * @return the session
   */
  public static PgSession open(PgSettings settings, LimiterConfig config) {
    PgPool pool = PgPool.attach(settings, config);
    String id;
    try {
      id = pool.register();
    } catch (RuntimeException e) {
      pool.release();
      throw e;
    }
    PgSession s = new PgSession(pool, id);
    pool.join(s);
    return s;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> PoolOutcome<R> execute(PoolCommand<R> command) {
    try {
      return closed ? submit(command).join() : pool.execute(command);
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SluiceException se) {
        throw se;
      }
      throw new BackendFailureException(pool.describe() + ": " + cause, cause);
    }
  }

  @Override
  public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
    if (closed) {
      return CompletableFuture.failedFuture(
          new BackendFailureException(
              "owner " + ownerId + " of " + pool.describe() + " is closed", null));
    }
    return pool.submit(command);
  }

  @Override
  public long appliedSequence() {
    return pool.appliedSequence();
  }

  @Override
  public void onChange(Runnable onChange) {
    this.onChange = onChange;
  }

  /**
   * Marks this owner's row as a watcher's, so every commit that changes the pool names it in its
   * NOTIFY (or, in this JVM, wakes it), and runs {@code onAnyChange} at each such wake.
   */
  @Override
  public boolean watch(Runnable onAnyChange) {
    watcher = Objects.requireNonNull(onAnyChange, "onAnyChange");
    pool.watch(ownerId);
    return true;
  }

  /** Runs the change and watch actions, on the pool view's wake thread. */
  void wake() {
    run(onChange);
    run(watcher);
  }

  private void run(Runnable action) {
    if (action != null && !closed) {
      pool.dispatch(
          () -> {
            if (!closed) {
              action.run();
            }
          });
    }
  }

  @Override
  public void retire() {
    if (closed) {
      return;
    }
    if (pool.isLost(ownerId)) {
      close(); // the store reclaimed everything it held: nothing is left to retire
      return;
    }
    try {
      execute(new PoolCommand.Retire(ownerId));
    } catch (OwnerLostException e) {
      close();
      return;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    closed = true;
    pool.leave(this, true);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    pool.leave(this, false);
  }
}
