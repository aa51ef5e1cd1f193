/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.LimiterConfig;
import dev.sluice.OwnerLostException;
import dev.sluice.PoolSnapshot;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolStore;
import java.util.Objects;

/**
 * The console's watch of one pool of a store that tells of changes ({@link PoolSession#watch}), on
 * a session of its own, through which it also reads the pool.
 *
 * <p>A store with owner liveness may declare the session's owner dead while the console lives (its
 * heartbeat lapsed: the JVM was paused longer than the heartbeat timeout, or its connection was cut
 * and the owner reclaimed meanwhile). The owner's row goes with it, so no commit names it any more,
 * and the store fails the session's commands with {@link OwnerLostException}; it also wakes the
 * watcher once, so the console reads. That read is the one that learns of the loss: the watch opens
 * a new session, watches on it before it reads (so a change committed after the read is announced,
 * and one committed before is in it), and closes the lost one.
 *
 * <p>Thread-safe: every method holds the watch's lock; {@link #inspect} blocks for a read of the
 * store (and, after a loss, for a new owner's registration).
 */
public final class PoolWatch implements AutoCloseable {
  private final PoolStore store;
  private final LimiterConfig config;
  private PoolSession session;
  private Runnable onAnyChange;
  private boolean closed;

  private PoolWatch(PoolStore store, LimiterConfig config, PoolSession session) {
    this.store = store;
    this.config = config;
    this.session = session;
  }

  /**
   * Opens a session on the pool of {@code store}, which {@link #start} watches.
   *
   * @param store the pool's store
   * @param config the pool's configuration, as stored
   * @throws dev.sluice.BackendFailureException if the store failed
   */
  public static PoolWatch open(PoolStore store, LimiterConfig config) {
    return new PoolWatch(store, config, store.open(config));
  }

  /**
   * Watches the pool: {@code onAnyChange} runs on a store thread after every change.
   *
   * @return whether the store can tell (see {@link PoolSession#watch})
   */
  synchronized boolean start(Runnable onAnyChange) {
    this.onAnyChange = Objects.requireNonNull(onAnyChange, "onAnyChange");
    return session.watch(onAnyChange);
  }

  /**
   * Reads the pool through the watching session; if the store declared its owner dead, watches
   * again as a new owner and reads through it.
   *
   * @throws dev.sluice.SluiceException if the store failed (then the next read tries again)
   */
  synchronized PoolSnapshot inspect() {
    try {
      return read();
    } catch (OwnerLostException e) {
      if (closed || onAnyChange == null) {
        throw e;
      }
      PoolSession lost = session;
      PoolSession next = store.open(config);
      try {
        next.watch(onAnyChange);
      } catch (RuntimeException failed) {
        next.close();
        throw failed;
      }
      session = next;
      lost.close();
      return read();
    }
  }

  private PoolSnapshot read() {
    return session.execute(new PoolCommand.Inspect(session.ownerId())).value();
  }

  /** Retires the watching owner (the store forgets it and stops naming it). */
  public synchronized void retire() {
    closed = true;
    session.retire();
  }

  /** Closes the watching session without a retire. */
  @Override
  public synchronized void close() {
    closed = true;
    session.close();
  }
}
