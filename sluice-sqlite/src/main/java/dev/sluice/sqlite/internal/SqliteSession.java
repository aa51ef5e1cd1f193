/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.sqlite.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.SluiceException;
import dev.sluice.TimeSource;
import dev.sluice.local.Owner;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One owner of a SQLite pool: its lock file and socket, and its commands, which the pool's
 * coordinator applies.
 *
 * <p>Thread-safe.
 */
public final class SqliteSession implements PoolSession {
  private final SqlitePool pool;
  private final Owner owner;
  private final TimeSource clock;
  private volatile Runnable onChange;
  private volatile boolean closed;

  private SqliteSession(SqlitePool pool, Owner owner, TimeSource clock) {
    this.pool = pool;
    this.owner = owner;
    this.clock = clock;
  }

  /**
   * Opens a session: joins the JVM's view of the pool and registers a new owner.
   *
   * @param settings where and how
   * @return the session
   */
  public static SqliteSession open(SqliteSettings settings) {
    SqlitePool pool =
        SqlitePool.attach(
            settings.directory(),
            settings.config(),
            settings.clock().wallMillis(),
            settings.traceCapacity(),
            settings.fullSync());
    Owner owner;
    try {
      owner = Owner.create(settings.directory());
    } catch (java.io.IOException e) {
      SqliteSession orphan = new SqliteSession(pool, null, settings.clock());
      pool.leave(orphan);
      throw new BackendFailureException(
          "pool " + settings.directory() + ": cannot register an owner: " + e.getMessage(), e);
    }
    SqliteSession s = new SqliteSession(pool, owner, settings.clock());
    pool.join(s);
    return s;
  }

  @Override
  public String ownerId() {
    return owner.id();
  }

  @Override
  public <R> PoolOutcome<R> execute(PoolCommand<R> command) {
    try {
      return submit(command).join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SluiceException se) {
        throw se;
      }
      throw new BackendFailureException("pool " + pool.directory() + ": " + cause, cause);
    }
  }

  @Override
  public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
    if (closed) {
      return CompletableFuture.failedFuture(
          new BackendFailureException(
              "owner " + owner.id() + " of pool " + pool.directory() + " is closed", null));
    }
    return pool.submit(command, clock);
  }

  @Override
  public long appliedSequence() {
    return pool.appliedSequence();
  }

  @Override
  public void onChange(Runnable onChange) {
    this.onChange = onChange;
  }

  void wake() {
    Runnable action = onChange;
    if (action != null && !closed) {
      action.run();
    }
  }

  @Override
  public void retire() {
    if (closed) {
      return;
    }
    try {
      execute(new PoolCommand.Retire(ownerId()));
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    owner.close();
    pool.leave(this);
    // Its lock is free now: if it left anything behind, the next command proves it dead and
    // reclaims it; an owner that retired first left nothing.
    pool.ownerGone(owner.id());
  }
}
