/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Learns the moment another JVM's owner dies, for the pools of this JVM that wait behind it. While
 * a pool has a request of this JVM queued and an owner of another JVM holds leases there, the pool
 * asks for that owner to be watched ({@link #want}); a watcher thread then blocks on a connection
 * of its own in {@code pg_advisory_lock_shared} on the owner's lock key ({@link OwnerWatch}). The
 * owner holds that lock exclusively for its lifetime on its JVM's dedicated connection, and the
 * server drops it when that connection dies, so the call returns when the owner's JVM is killed or
 * cut off. The watcher lets go of the lock at once and wakes the pools that wanted the owner: their
 * owners send a command, whose transaction reads liveness and reclaims the dead owner through the
 * one algorithm. The heartbeat's probe ({@link Heartbeats}) stays the fallback, for owners that no
 * watcher covers and for live JVMs whose heartbeat lapsed.
 *
 * <p>Bounds: at most {@link #MAX_WATCHERS} watchers per data source, each holding one connection
 * only while it waits; none when no pool waits behind another JVM. An owner is watched only once
 * one of its leases has been held for {@link #START_DELAY_NANOS} while a request of this JVM waits,
 * so the short leases of a busy pool cost nothing (a dead owner's leases stay); a watch of an owner
 * no longer wanted is cancelled. A watch that returns while the owner lives (its JVM is taking its
 * lock again after a reconnect or a server restart) is not repeated before a pause that doubles
 * each time, so it never spins.
 *
 * <p>Thread-safe. {@link #want} never blocks on the database.
 */
final class DeathWatch {
  /** Connections (and threads) that may wait on owners' locks at once, per data source. */
  static final int MAX_WATCHERS = 2;

  private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private static final long LAST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final DataSource dataSource;

  /** Per pool, the owners it waits behind and since when (nanos) each held its oldest lease. */
  private final Map<Object, Map<String, Long>> byPool = new HashMap<>();

  private final Map<Object, Runnable> wakes = new HashMap<>();

  /** Per wanted owner, from when it may be watched. */
  private final Map<String, Long> watchableAt = new HashMap<>();

  /** Per owner whose watch returned while it was still wanted: the pause and its end. */
  private final Map<String, Long> pauses = new HashMap<>();

  private final Map<String, Long> pausedUntil = new HashMap<>();
  private final Map<String, OwnerWatch> watching = new HashMap<>();
  private final ExecutorService cancels;
  private int threads;
  private boolean stopping;

  /** The earliest time a waiting watcher wakes up at by itself; a later watchable time waits. */
  private long sleepingUntil;

  private boolean sleeping;

  DeathWatch(DataSource dataSource) {
    this.dataSource = dataSource;
    this.cancels =
        new ThreadPoolExecutor(
            0,
            1,
            1,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> daemon(r, "sluice-postgres-watch-cancel"));
  }

  /**
   * The owners of other JVMs that {@code pool} waits behind now (empty: none), each with the {@link
   * System#nanoTime()} since which it holds its oldest lease; replaces what it wanted before.
   * Called after each of the pool's commits.
   *
   * @param pool the pool view, by identity
   * @param heldSince the owners to watch
   * @param wake wakes the pool's owners of this JVM when one of them died
   */
  synchronized void want(Object pool, Map<String, Long> heldSince, Runnable wake) {
    if (stopping || heldSince.equals(byPool.getOrDefault(pool, Map.of()))) {
      return;
    }
    if (heldSince.isEmpty()) {
      byPool.remove(pool);
      wakes.remove(pool);
    } else {
      byPool.put(pool, Map.copyOf(heldSince));
      wakes.put(pool, wake);
    }
    refresh();
  }

  /** The pool view closed: it wants nothing any more. */
  void forget(Object pool) {
    want(pool, Map.of(), null);
  }

  /** Cancels every watch; the watchers end. */
  synchronized void stop() {
    stopping = true;
    byPool.clear();
    wakes.clear();
    refresh();
    cancels.shutdown();
  }

  /** Brings the wanted owners up to date with the pools' wishes; starts or ends watches. */
  private void refresh() {
    Map<String, Long> since = new HashMap<>();
    for (Map<String, Long> owners : byPool.values()) {
      for (Map.Entry<String, Long> e : owners.entrySet()) {
        since.merge(e.getKey(), e.getValue(), Math::min);
      }
    }
    Set<String> wanted = since.keySet();
    pauses.keySet().retainAll(wanted);
    pausedUntil.keySet().retainAll(wanted);
    watchableAt.clear();
    for (Map.Entry<String, Long> e : since.entrySet()) {
      long at = e.getValue() + START_DELAY_NANOS;
      Long paused = pausedUntil.get(e.getKey());
      watchableAt.put(e.getKey(), paused != null && paused - at > 0 ? paused : at);
    }
    for (Map.Entry<String, OwnerWatch> e : watching.entrySet()) {
      if (!wanted.contains(e.getKey())) {
        e.getValue().cancel(cancels);
      }
    }
    int needed = Math.min(MAX_WATCHERS, wanted.size());
    while (threads < needed) {
      threads++;
      daemon(this::work, "sluice-postgres-watch").start();
    }
    // Waiting watchers are woken only when they must act sooner than they would by themselves:
    // in a busy pool the times move later with every commit, and nobody wakes for that.
    if (stopping || !sleeping || earliestUnwatched() - sleepingUntil < 0) {
      notifyAll();
    }
  }

  private long earliestUnwatched() {
    long now = System.nanoTime();
    long earliest = now + LAST_PAUSE_NANOS;
    for (Map.Entry<String, Long> e : watchableAt.entrySet()) {
      if (!watching.containsKey(e.getKey()) && e.getValue() - earliest < 0) {
        earliest = e.getValue();
      }
    }
    return earliest;
  }

  private void work() {
    while (true) {
      OwnerWatch watch = next();
      if (watch == null) {
        return;
      }
      boolean ended = watch.await(dataSource);
      List<Runnable> toWake = finished(watch, ended);
      for (Runnable wake : toWake) {
        wake.run();
      }
    }
  }

  /** The next owner to watch, waiting until one may be; {@code null} if this watcher may end. */
  private synchronized OwnerWatch next() {
    while (true) {
      long now = System.nanoTime();
      long soonest = Long.MAX_VALUE;
      boolean waiting = false;
      for (Map.Entry<String, Long> e : watchableAt.entrySet()) {
        if (watching.containsKey(e.getKey())) {
          continue;
        }
        long wait = e.getValue() - now;
        if (wait <= 0) {
          OwnerWatch w = new OwnerWatch(e.getKey());
          watching.put(e.getKey(), w);
          return w;
        }
        waiting = true;
        soonest = Math.min(soonest, wait);
      }
      if (stopping || !waiting) {
        threads--;
        return null;
      }
      long until = now + soonest;
      if (!sleeping || until - sleepingUntil < 0) {
        sleepingUntil = until;
      }
      sleeping = true;
      try {
        TimeUnit.NANOSECONDS.timedWait(this, soonest);
      } catch (InterruptedException e) {
        threads--;
        return null;
      } finally {
        sleeping = false;
      }
    }
  }

  /**
   * A watch is over. If it ended (the owner's lock was free, or the watch's connection failed), the
   * owner is paused before it is watched again and the pools that want it are returned, to be woken
   * outside the monitor.
   */
  private synchronized List<Runnable> finished(OwnerWatch watch, boolean ended) {
    watching.remove(watch.owner());
    List<Runnable> toWake = new ArrayList<>();
    if (!ended || !watchableAt.containsKey(watch.owner())) {
      return toWake;
    }
    long pause = pauses.getOrDefault(watch.owner(), FIRST_PAUSE_NANOS);
    pauses.put(watch.owner(), Math.min(LAST_PAUSE_NANOS, pause * 2));
    long until = System.nanoTime() + pause;
    pausedUntil.put(watch.owner(), until);
    watchableAt.put(watch.owner(), until);
    for (Map.Entry<Object, Map<String, Long>> e : byPool.entrySet()) {
      if (e.getValue().containsKey(watch.owner())) {
        toWake.add(wakes.get(e.getKey()));
      }
    }
    return toWake;
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
