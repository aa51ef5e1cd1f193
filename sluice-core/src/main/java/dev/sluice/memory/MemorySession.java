/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.memory;

import dev.sluice.BackendFailureException;
import dev.sluice.TimeSource;
import dev.sluice.spi.PoolAlgorithm;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolContext;
import dev.sluice.spi.PoolOutcome;
import dev.sluice.spi.PoolSession;
import dev.sluice.spi.PoolState;
import java.util.concurrent.CompletableFuture;

/**
 * An owner of an in-JVM pool. Commands run on the calling thread under the pool's lock. A command
 * that changed the pool wakes the pool's other owners afterwards, on the same thread, as a
 * cross-process store's pulse would: usually there is only one owner per JVM, but a pool opened
 * through two store handles of different identity has two.
 *
 * <p>Thread-safe.
 */
final class MemorySession implements PoolSession {
  private final MemoryPool pool;
  private final String ownerId;
  private final TimeSource clock;
  private volatile Runnable onChange;
  private volatile boolean closed;

  MemorySession(MemoryPool pool, String ownerId, TimeSource clock) {
    this.pool = pool;
    this.ownerId = ownerId;
    this.clock = clock;
  }

  @Override
  public String ownerId() {
    return ownerId;
  }

  @Override
  public <R> PoolOutcome<R> execute(PoolCommand<R> command) {
    // Read before the lock, so that the lock is not held for a reading (tens of nanoseconds on a
    // virtual machine, a fair part of a command); see MemoryPool.storeTime.
    return apply(command, clock.wallMillis(), false);
  }

  /**
   * Takes the time from the caller's reading of this store's clock: one reading fewer. If the lock
   * was free and no command applied meanwhile at a later time, the command applies at that very
   * reading, and its outcome says so ({@link PoolOutcome#atIssuersReading()}).
   */
  @Override
  public <R> PoolOutcome<R> execute(PoolCommand<R> command, long monotonicNanos) {
    return apply(command, clock.wallMillisAt(monotonicNanos), true);
  }

  @Override
  public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command, long monotonicNanos) {
    try {
      return CompletableFuture.completedFuture(execute(command, monotonicNanos));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Applies {@code command} under the pool's lock at {@code read}, or later if a command applied
   * meanwhile at a later time; {@code issuersReading} tells whether {@code read} is the issuer's.
   */
  private <R> PoolOutcome<R> apply(PoolCommand<R> command, long read, boolean issuersReading) {
    if (closed) {
      throw new BackendFailureException(
          "owner " + ownerId + " of memory pool '" + pool.name() + "' is closed", null);
    }
    PoolOutcome<R> result;
    boolean changed;
    // Taken at once, the lock made the command wait for no other: its reading is still the time.
    boolean prompt = pool.tryLock();
    if (!prompt) {
      pool.lock();
    }
    try {
      PoolState state = pool.state();
      boolean atReading = issuersReading && prompt && pool.readingStands(read);
      PoolContext context =
          new PoolContext(
              pool.storeTime(read, clock), pool.takeDeadOwners(), pool.nextSequence(), atReading);
      result = PoolAlgorithm.apply(state, command, context);
      changed = state.isDirty();
      state.markClean();
    } finally {
      pool.unlock();
    }
    if (changed) {
      pool.changedBy(this);
    }
    return result;
  }

  void wake() {
    Runnable action = onChange;
    if (action != null) {
      action.run();
    }
  }

  @Override
  public <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command) {
    try {
      return CompletableFuture.completedFuture(execute(command));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void onChange(Runnable onChange) {
    this.onChange = onChange;
  }

  @Override
  public long appliedSequence() {
    return pool.appliedSequence();
  }

  @Override
  public void retire() {
    if (closed) {
      return;
    }
    pool.leave(this);
    try {
      execute(new PoolCommand.Retire(ownerId));
    } finally {
      closed = true;
    }
  }

  /**
   * Leaves as a process that dies would: the next command on the pool reclaims whatever this owner
   * held, and the other owners are woken to send one.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    pool.leave(this);
    pool.died(ownerId);
  }
}
