/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * This JVM's owners (sessions) of one pool view, which of them the store declared lost, and the
 * thread their change actions run on: the limiter may answer a wake with blocking work (after an
 * owner loss it opens a new session, which needs the listener), so wakes never run on the
 * listener's or the coordinator's thread.
 *
 * <p>Thread-safe.
 */
final class LocalOwners {
  private final List<PgSession> sessions = new CopyOnWriteArrayList<>();
  private final Set<String> lost = ConcurrentHashMap.newKeySet();

  /**
   * Per owner, the monotonic time until which its heartbeat surely lasts: its last renewal's send
   * time plus its timeout. Past it, other JVMs may have reclaimed it by the server's clock.
   */
  private final Map<String, Long> aliveUntil = new ConcurrentHashMap<>();

  private final ExecutorService wakes;

  LocalOwners(String pool) {
    this.wakes =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-postgres-wakes-" + pool);
              t.setDaemon(true);
              return t;
            });
  }

  /** Runs a session's change action on the wake thread. */
  void dispatch(Runnable action) {
    try {
      wakes.execute(action);
    } catch (RejectedExecutionException e) {
      action.run(); // the pool view closed: nothing else runs on its wake thread any more
    }
  }

  void join(PgSession s) {
    sessions.add(s);
  }

  /** A session leaves; its owner is forgotten, lost or not. */
  void leave(PgSession s) {
    sessions.remove(s);
    lost.remove(s.ownerId());
    aliveUntil.remove(s.ownerId());
  }

  /** The store declared {@code owner} dead: it is woken to learn of it; false if it was known. */
  boolean lose(String owner) {
    if (!lost.add(owner)) {
      return false;
    }
    wake(Set.of(owner));
    return true;
  }

  boolean isLost(String owner) {
    return lost.contains(owner);
  }

  /** An owner's heartbeat was renewed (or first written) by a statement sent at the given time. */
  void renewed(String owner, long untilNanos) {
    aliveUntil.put(owner, untilNanos);
  }

  /**
   * Whether {@code owner}'s heartbeat surely still lasts at {@code nowNanos}. A batch that
   * committed a moment ago may be delivered long after (its JVM was stopped or paused in between);
   * if the heartbeat may have lapsed meanwhile, other JVMs may have reclaimed what it granted.
   */
  boolean surelyAlive(String owner, long nowNanos) {
    Long until = aliveUntil.get(owner);
    return until != null && nowNanos - until < 0;
  }

  /** The ids of the owners. */
  Set<String> ids() {
    Set<String> ids = new HashSet<>();
    for (PgSession s : sessions) {
      ids.add(s.ownerId());
    }
    return ids;
  }

  /** Wakes the owners among {@code owners} after this JVM's own commit; none if there is one. */
  void wakeLocal(Set<String> owners) {
    if (sessions.size() > 1) {
      wake(owners);
    }
  }

  void wakeAll() {
    for (PgSession s : sessions) {
      s.wake();
    }
  }

  void wake(Set<String> owners) {
    if (owners.isEmpty()) {
      return;
    }
    for (PgSession s : sessions) {
      if (owners.contains(s.ownerId())) {
        s.wake();
      }
    }
  }

  /** Stops the wake thread; a later change action runs on the caller's thread. */
  void shutdown() {
    wakes.shutdown();
  }
}
