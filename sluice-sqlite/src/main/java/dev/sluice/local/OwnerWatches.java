/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.local;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One store's watches on other processes' owners of a pool: it tells the store when an owner is
 * suspected dead and keeps telling it until the death is proven or the owner is seen alive again.
 *
 * <p>An owner's socket reaches end-of-file a moment before the kernel frees its lock: a process
 * that dies closes its files one by one, and an owner that retires closes its socket first. A proof
 * tried in that moment fails, and the end-of-file that caused it will not come again. So a suspect
 * whose proof failed is looked at again after a delay that starts at 1 ms and doubles to at most 1
 * s: the owner's socket is connected to anew, and a refused connection makes it a suspect once
 * more, while an accepted one means the owner lives and is watched as before. Nothing is retried
 * for an owner nobody suspects, so an idle pool makes no wake-ups.
 *
 * <p>Thread-safe. Never blocks; the suspect action runs on the JVM's liveness thread, on its retry
 * thread, or on the thread that asked to watch (when the connection is refused at once), and must
 * be short.
 */
public final class OwnerWatches implements AutoCloseable {
  private static final long MAX_RETRY_MILLIS = 1000;
  private static final ScheduledThreadPoolExecutor RETRIES = retryExecutor();

  private final PoolDirectory dir;
  private final Consumer<String> onSuspect;
  private final Map<String, Watch> watches = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** One connection to an owner's socket, and how many proofs in a row failed before it. */
  private static final class Watch {
    volatile int failedProofs;
    volatile AutoCloseable connection = () -> {};
    volatile boolean ended;
    volatile boolean retryScheduled;

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
      connect(owner, 0);
    }
  }

  /**
   * Proves an owner dead (see {@link Owner#provenDead}); call under the gate. An owner not proven
   * dead is watched from then on, and one suspected in vain is looked at again later.
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
    if (w == null) {
      watch(owner);
    } else if (w.ended && !w.retryScheduled) {
      w.retryScheduled = true;
      long delay = Math.min(MAX_RETRY_MILLIS, 1L << Math.min(w.failedProofs, 10));
      RETRIES.schedule(() -> retry(owner, w), delay, TimeUnit.MILLISECONDS);
    }
    return false;
  }

  private void retry(String owner, Watch w) {
    if (!closed && watches.get(owner) == w) {
      connect(owner, w.failedProofs + 1);
    }
  }

  private void connect(String owner, int failedProofs) {
    Watch w = new Watch(failedProofs);
    Watch before = watches.put(owner, w);
    if (before != null) {
      closeQuietly(before.connection);
    }
    Path socket = dir.ownersDir().resolve(owner + ".sock");
    AutoCloseable connection = LivenessWatcher.instance().watch(socket, () -> ended(owner, w));
    w.connection = connection;
    if (closed) {
      closeQuietly(connection);
    } else if (!w.ended) {
      // The owner took the connection, so it lives: its next death starts the delays afresh.
      w.failedProofs = 0;
    }
  }

  private void ended(String owner, Watch w) {
    w.ended = true;
    if (!closed && watches.get(owner) == w) {
      onSuspect.accept(owner);
    }
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
              Thread t = new Thread(r, "sluice-owner-retry");
              t.setDaemon(true);
              return t;
            });
    // No thread lingers once no suspect waits for a retry.
    e.setKeepAliveTime(2, TimeUnit.SECONDS);
    e.allowCoreThreadTimeOut(true);
    return e;
  }
}
