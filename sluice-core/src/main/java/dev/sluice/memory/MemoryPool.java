/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.TimeSource;
import dev.sluice.spi.PoolState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One in-JVM pool: its state, guarded by this pool's lock, and the sessions to wake when one of
 * them changes it.
 *
 * <p>A {@link ReentrantLock} rather than a monitor: with more runnable callers than cores, a holder
 * is often descheduled inside the critical section, and a contended monitor then spins its waiters
 * on the cores the holder needs (measured: eight callers on two cores spent most of their time
 * spinning), where the lock's waiters park at once.
 */
final class MemoryPool {
  private static final VarHandle SEQUENCE;

  static {
    try {
      SEQUENCE = MethodHandles.lookup().findVarHandle(MemoryPool.class, "sequence", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final PoolState state;
  private final CopyOnWriteArrayList<MemorySession> sessions = new CopyOnWriteArrayList<>();
  private volatile long sequence;
  private final String name;
  private Set<String> deadOwners = Set.of();

  /** The time of the last command applied. Guarded by the lock. */
  private long lastTime = Long.MIN_VALUE;

  MemoryPool(String name, PoolState state) {
    this.name = name;
    this.state = state;
  }

  String name() {
    return name;
  }

  /**
   * Records an owner that left without retiring, as its process's death would be proven, and wakes
   * the others: the next command on the pool reclaims what it held.
   */
  void died(String owner) {
    lock();
    try {
      Set<String> dead = new HashSet<>(deadOwners);
      dead.add(owner);
      deadOwners = Set.copyOf(dead);
    } finally {
      unlock();
    }
    changedBy(null);
  }

  /** Takes the lock that guards the state; blocks until it is free. */
  void lock() {
    lock.lock();
  }

  /** Takes the lock that guards the state if it is free; returns whether it did. */
  boolean tryLock() {
    return lock.tryLock();
  }

  /** Whether {@code thread} waits for the lock: for tests of what a wait changes. */
  boolean waitedForBy(Thread thread) {
    return lock.hasQueuedThread(thread);
  }

  void unlock() {
    lock.unlock();
  }

  /** The owners proven dead since the last command, which reclaims them; under the lock. */
  Set<String> takeDeadOwners() {
    Set<String> dead = deadOwners;
    if (!dead.isEmpty()) {
      deadOwners = Set.of();
    }
    return dead;
  }

  PoolState state() {
    return state;
  }

  /**
   * The time the next command applies at, given {@code read}, a reading of {@code clock} taken
   * before the lock; called under the lock. The reading stands unless a command applied meanwhile
   * at a later time: then the clock is read again, here, as every command once read it, so the
   * pool's commands never go back in time by the early reading (only a clock that steps back makes
   * them, as before).
   */
  long storeTime(long read, TimeSource clock) {
    long now = readingStands(read) ? read : clock.wallMillis();
    lastTime = now;
    return now;
  }

  /**
   * Whether the next command applies at {@code read}: no command applied meanwhile at a later time
   * (see {@link #storeTime}); called under the lock.
   */
  boolean readingStands(long read) {
    return read >= lastTime;
  }

  /**
   * The next command's sequence; called under the lock. A release store: it is read outside the
   * lock only by the committing thread after the unlock, or by a later holder, and the unlock that
   * follows fences anyway; nothing inside the critical section depends on its order.
   */
  long nextSequence() {
    long next = sequence + 1;
    SEQUENCE.setRelease(this, next);
    return next;
  }

  long appliedSequence() {
    return sequence;
  }

  void join(MemorySession session) {
    sessions.add(session);
  }

  void leave(MemorySession session) {
    sessions.remove(session);
  }

  /** Wakes every session but {@code source} (every one for {@code null}), outside the lock. */
  void changedBy(MemorySession source) {
    if (source != null && sessions.size() < 2) {
      return;
    }
    for (MemorySession s : sessions) {
      if (s != source) {
        s.wake();
      }
    }
  }
}
