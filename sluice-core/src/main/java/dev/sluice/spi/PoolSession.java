/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.spi;

import java.util.concurrent.CompletableFuture;

/**
 * One owner's connection to a pool. A JVM holds one session per pool and shares it among all its
 * limiters on that pool; leases and queue entries carry the session's {@link #ownerId()}, and when
 * the owner dies (its process exits) the store reclaims them.
 *
 * <p>A store applies each command with {@link PoolAlgorithm#apply} under its lock or transaction,
 * persists the state if it changed, and wakes the owners the outcome {@linkplain
 * PoolOutcome#concernedOwners() concerns} (and, where a pool's {@linkplain
 * PoolOutcome#deadlineMoved() deadline moved}, every owner with a waiting request). It interprets
 * no command itself.
 *
 * <p>Implementations must be thread-safe. Commands are applied one at a time per pool, in the order
 * the store takes them, each seeing the effects of all earlier ones; one session's commands are
 * applied in the order they were submitted or executed.
 */
public interface PoolSession extends AutoCloseable {
  /** Returns this owner's id, unique among the pool's owners, never reused. */
  String ownerId();

  /**
   * Applies a command and returns its outcome. Blocks until the store has applied and persisted it.
   *
   * @param command what this owner asks; its {@link PoolCommand#owner()} is this session's id
   * @param <R> the command's answer type
   * @return the outcome
   * @throws dev.sluice.BackendFailureException if the store failed; the state is as it was
   * @throws dev.sluice.OwnerLostException if the store declared this owner dead (see {@link
   *     #onChange}); nothing was applied, and the session is of no further use
   */
  <R> PoolOutcome<R> execute(PoolCommand<R> command);

  /**
   * Applies a command like {@link #execute} without blocking the caller. A store may apply several
   * submitted commands in one transaction. The future completes on a store thread or the calling
   * thread; continuations must be short.
   *
   * <p>The caller may take the command back with {@code cancel}: it succeeds only while the store
   * has not begun to apply it, and then the store never applies it; afterwards {@code cancel}
   * returns false and the outcome arrives as usual. A store that applies commands later, on a
   * thread of its own, returns a {@link dev.sluice.spi.support.PendingOutcome} and claims each
   * command once it holds its lock; one that applies on the calling thread returns a completed
   * future, which no cancel changes. So a caller whose patience ends while the store waits for its
   * lock (held by a stopped process, say) gets an answer instead of a wait.
   *
   * @param command what this owner asks
   * @param <R> the command's answer type
   * @return the outcome
   */
  <R> CompletableFuture<PoolOutcome<R>> submit(PoolCommand<R> command);

  /**
   * Like {@link #execute(PoolCommand)}, from a caller that read the store's {@linkplain
   * PoolStore#clock() clock} at {@code monotonicNanos} just before. A store that takes its time
   * from that clock on the calling thread may use the reading ({@link
   * dev.sluice.TimeSource#wallMillisAt}) instead of reading the clock again, as long as its
   * commands still never go back in time; any other store ignores it, which the default does.
   *
   * @param command what this owner asks
   * @param monotonicNanos the caller's recent reading of the store clock's monotonic time
   * @param <R> the command's answer type
   * @return the outcome
   */
  default <R> PoolOutcome<R> execute(PoolCommand<R> command, long monotonicNanos) {
    return execute(command);
  }

  /**
   * Like {@link #submit(PoolCommand)}, from a caller that read the store's clock at {@code
   * monotonicNanos} just before; see {@link #execute(PoolCommand, long)}. The default ignores the
   * reading.
   *
   * @param command what this owner asks
   * @param monotonicNanos the caller's recent reading of the store clock's monotonic time
   * @param <R> the command's answer type
   * @return the outcome
   */
  default <R> CompletableFuture<PoolOutcome<R>> submit(
      PoolCommand<R> command, long monotonicNanos) {
    return submit(command);
  }

  /**
   * The {@linkplain PoolContext#sequence() sequence} of the last command the store applied to this
   * pool in this JVM. A wake that arrives when this reads {@code n} is covered by any command whose
   * outcome has a sequence above {@code n}: that command saw the change the wake announced.
   */
  long appliedSequence();

  /**
   * Sets the action to run when another owner may have changed the pool or died. The store calls it
   * from its own thread (the memory store: from the thread of the other owner's command, after it
   * committed); it is never called for this session's own commands. A command submitted after the
   * call sees the change.
   *
   * <p>The store also calls it when it declares this owner dead while the owner lives (a server
   * store whose heartbeat from this JVM lapsed): it reclaims the owner's leases and queue entries
   * as for a dead owner, and from then on fails every command of the session with {@link
   * dev.sluice.OwnerLostException}, so the JVM learns of the loss at its next command, stops
   * counting those leases, fails its requests that had not started, and opens a new session.
   *
   * @param onChange a short, non-blocking action
   */
  void onChange(Runnable onChange);

  /**
   * Asks to be told of every change of the pool: the store calls {@code onAnyChange} from its own
   * thread after each commit that changed the pool's state, whoever committed it (in any process,
   * this session's own commands included), and whenever it may have missed one (a reconnect). Calls
   * may be merged; the action reads the pool to learn what changed. Meant for observers such as a
   * console, which own a session only to watch: a store notifies watchers only while one exists, so
   * watching costs nothing when nobody watches. The store notifies and persists; it interprets no
   * change.
   *
   * <p>A store that cannot tell (the default) returns {@code false} and never calls the action; the
   * caller then follows the pool by its own means (for SQLite, the pool directory's files).
   *
   * @param onAnyChange a short, non-blocking action
   * @return whether the store will call it
   * @throws dev.sluice.BackendFailureException if the store failed to record the watch
   */
  default boolean watch(Runnable onAnyChange) {
    return false;
  }

  /**
   * Retires the owner: applies {@link PoolCommand.Retire}, which removes whatever it still holds,
   * then releases its resources as {@link #close()} does. Blocks until done.
   *
   * @throws dev.sluice.BackendFailureException if the store failed; resources are released anyway
   */
  void retire();

  /**
   * Releases the owner's resources without a retire; a store with owner liveness reclaims what the
   * owner held. Blocks until the store's own resources for the session are released.
   */
  @Override
  void close();
}
