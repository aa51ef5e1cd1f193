/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import dev.sluice.spi.support.Log;
import dev.sluice.spi.support.Logs;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One store's watches on other processes' owners of a pool: it tells the store when an owner is
 * suspected dead and keeps telling it until the death is proven.
 *
 * <p>An owner's socket reaches end-of-file a moment before the kernel frees its lock: a process
 * that dies closes its files one by one, and an owner that retires closes its socket first. A proof
 * tried in that moment fails, and the end-of-file that caused it will not come again. So a suspect
 * whose proof failed is looked at again after a delay that starts at 1 ms and doubles to at most 1
 * s: its socket is connected to anew, and a refused or ended connection makes it a suspect once
 * more. An owner id is never reused and an owner never closes its socket while it lives, so the
 * delays only ever run for an owner on its way out. Nothing is retried for an owner nobody
 * suspects, so an idle pool makes no wake-ups.
 *
 * <p>Thread-safe. {@link #check} never blocks; {@link #watch} connects to a Unix socket, which does
 * not wait for the owner. The suspect action always runs on this class's own thread, never on the
 * caller's (which may hold the gate), and must be short.
 */
public final class OwnerWatches implements AutoCloseable {
  private static final Log LOG = Logs.of(OwnerWatches.class);
  private static final long MAX_RETRY_MILLIS = 1000;
  private static final ScheduledThreadPoolExecutor RETRIES = retryExecutor();

  private final PoolDirectory dir;
  private final Consumer<String> onSuspect;
  private final Map<String, Watch> watches = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** One connection to an owner's socket, and how many proofs failed before it was made. */
  private static final class Watch {
    final int failedProofs;
    volatile AutoCloseable connection = () -> {};
    volatile boolean ended;
    final AtomicBoolean retryScheduled = new AtomicBoolean();

    Watch(int failedProofs) {
      this.failedProofs = failedProofs;
    }
  }

  /**
   * @param dir the pool
   * @param onSuspect told an owner's id whenever that owner may have died; the store should then
   *     {@link #check check} it under the gate
   */
  public OwnerWatches(PoolDirectory dir, Consumer<String> onSuspect) {
    this.dir = dir;
    this.onSuspect = onSuspect;
  }

  /** Watches an owner of another process, if it is not watched yet. */
  public void watch(String owner) {
    if (!closed && !Owner.isLocal(owner) && !watches.containsKey(owner)) {
      connect(owner, null, 0);
    }
  }

  /**
   * Proves an owner dead (see {@link Owner#provenDead}); call under the gate. An owner suspected in
   * vain is looked at again later.
   *
   * @return whether the owner is dead; its watch is then dropped
   */
  public boolean check(String owner) {
    if (Owner.isLocal(owner)) {
      return false;
    }
    if (Owner.provenDead(dir, owner)) {
      Watch w = watches.remove(owner);
      if (w != null) {
        closeQuietly(w.connection);
      }
      return true;
    }
    Watch w = watches.get(owner);
    if (w != null && w.ended && w.retryScheduled.compareAndSet(false, true)) {
      long delay = Math.min(MAX_RETRY_MILLIS, 1L << Math.min(w.failedProofs, 10));
      RETRIES.schedule(() -> retry(owner, w), delay, TimeUnit.MILLISECONDS);
    }
    return false;
  }

  private void retry(String owner, Watch w) {
    try {
      if (!closed && watches.get(owner) == w) {
        connect(owner, w, w.failedProofs + 1);
      }
    } catch (RuntimeException e) {
      // connect() already ended the new watch, which makes it a suspect.
      LOG.warn("cannot watch owner {} again; it is treated as suspect", owner, e);
    }
  }

  /** Replaces {@code before} (null: no watch) with a new connection, unless it was replaced. */
  private void connect(String owner, Watch before, int failedProofs) {
    Watch w = new Watch(failedProofs);
    boolean mine =
        before == null ? watches.putIfAbsent(owner, w) == null : watches.replace(owner, before, w);
    if (!mine) {
      return;
    }
    if (before != null) {
      closeQuietly(before.connection);
    }
    Path socket = dir.ownersDir().resolve(owner + ".sock");
    try {
      w.connection = LivenessWatcher.instance().watch(socket, () -> ended(owner, w));
    } catch (RuntimeException | Error e) {
      // A watch that never connected must still end, or nothing would look at the owner again.
      ended(owner, w);
      throw e;
    }
    if (closed || watches.get(owner) != w) {
      // Closed, or proven dead, meanwhile: nobody else will close this connection.
      closeQuietly(w.connection);
    }
  }

  private void ended(String owner, Watch w) {
    w.ended = true;
    RETRIES.execute(
        () -> {
          if (!closed && watches.get(owner) == w) {
            onSuspect.accept(owner);
          }
        });
  }

  /** Stops every watch, so that the JVM's liveness thread can end. */
  @Override
  public void close() {
    closed = true;
    watches.values().forEach(w -> closeQuietly(w.connection));
    watches.clear();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // Best effort: the watch ends with the process anyway.
    }
  }

  private static ScheduledThreadPoolExecutor retryExecutor() {
    ScheduledThreadPoolExecutor e =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "sluice-owner-watch");
              t.setDaemon(true);
              return t;
            });
    // No thread lingers once no suspect waits for a retry.
    e.setKeepAliveTime(2, TimeUnit.SECONDS);
    e.allowCoreThreadTimeOut(true);
    return e;
  }
}
