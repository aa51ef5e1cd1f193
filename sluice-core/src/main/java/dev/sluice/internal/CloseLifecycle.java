/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterClosedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A limiter's way from open to closed. It counts the requests in flight (the close holds one count
 * of its own) and tracks the ones that have not started. The first {@code close} or {@code drain}
 * fixes the mode: a close withdraws every unstarted request, a drain lets them run. When the count
 * reaches zero the limiter leaves its shared pool and the one shared stage completes.
 *
 * <p>Thread-safe; nothing here blocks except {@link #await}.
 */
final class CloseLifecycle {
  /** Where the limiter is on its way to closed. */
  enum Mode {
    OPEN,
    /** Closing: every request that waits is withdrawn, running ones finish. */
    CLOSING,
    /** Draining: every request, waiting or running, finishes first. */
    DRAINING
  }

  private final SharedPool pool;
  private final Set<Ticket> unstarted = ConcurrentHashMap.newKeySet();
  private final Set<StopsOnClose> executions = ConcurrentHashMap.newKeySet();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicBoolean detached = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final CompletionStage<Void> closedStage = closed.minimalCompletionStage();
  private volatile Mode mode = Mode.OPEN;

  CloseLifecycle(SharedPool pool) {
    this.pool = pool;
  }

  /** Whether no close or drain has begun. */
  boolean open() {
    return mode == Mode.OPEN;
  }

  /** Whether a close (not a drain) has begun: every request that waits will be withdrawn. */
  boolean closing() {
    return mode == Mode.CLOSING;
  }

  /**
   * Counts a new request in.
   *
   * @return false if the limiter is closing or closed: then the request must be refused
   */
  boolean admit() {
    inFlight.incrementAndGet();
    if (mode != Mode.OPEN) {
      ended();
      return false;
    }
    return true;
  }

  /**
   * Whether a later attempt of accepted work may start now, for a caller that holds a count already
   * (an attempt of a blocking call, inside its execution's): everything but a close lets it.
   */
  boolean takesContinuations() {
    return mode != Mode.CLOSING;
  }

  /**
   * Counts in the next attempt of an accepted managed execution, which holds a count of its own:
   * refused by a close, not by a drain, which lets accepted work retry to the end.
   *
   * @return false if the limiter is closing: then the attempt must be refused
   */
  boolean admitContinuation() {
    inFlight.incrementAndGet();
    if (mode == Mode.CLOSING) {
      ended();
      return false;
    }
    return true;
  }

  /** Tracks an accepted execution, which a close stops between attempts. */
  void track(StopsOnClose e) {
    executions.add(e);
    if (mode == Mode.CLOSING) {
      e.closing();
    }
  }

  /** Stops tracking an execution that ended. */
  void untrack(StopsOnClose e) {
    executions.remove(e);
  }

  /** Counts one request as fully ended; the last one lets a closing limiter detach. */
  void ended() {
    if (inFlight.decrementAndGet() == 0
        && mode != Mode.OPEN
        && detached.compareAndSet(false, true)) {
      try {
        pool.detach();
        closed.complete(null);
      } catch (RuntimeException e) {
        closed.completeExceptionally(e);
      }
    }
  }

  /** Tracks a request as unstarted work that a close withdraws. */
  void track(Ticket t) {
    t.tracked = true;
    unstarted.add(t);
    if (!t.state().unstarted()) {
      // Withdrawn or started before it was tracked: its own removal saw nothing to remove.
      unstarted.remove(t);
    }
  }

  /** Stops tracking a request that started or was withdrawn. */
  void untrack(Ticket t) {
    if (t.tracked) {
      unstarted.remove(t);
    }
  }

  /** The stage that completes when the limiter is closed, without beginning a close. */
  CompletionStage<Void> whenClosed() {
    return closedStage;
  }

  /**
   * Begins closing in {@code requested} mode unless a close or drain began first (whose mode then
   * holds).
   *
   * @return the one stage that completes when the limiter is closed
   */
  CompletionStage<Void> begin(Mode requested) {
    boolean first;
    synchronized (this) {
      first = mode == Mode.OPEN;
      if (first) {
        mode = requested;
      }
    }
    if (first) {
      inFlight.incrementAndGet();
      if (requested == Mode.CLOSING) {
        rejectUnstarted();
        for (StopsOnClose e : executions) {
          e.closing();
        }
      }
      ended();
    }
    return closedStage;
  }

  /**
   * Withdraws every request that has not started, oldest first, and cleans them up in one
   * transition, so freeing the first cannot grant the next before it is withdrawn too.
   */
  private void rejectUnstarted() {
    WithdrawReason reason = new WithdrawReason.Failure(closedException());
    List<Ticket> tickets = new ArrayList<>(unstarted);
    tickets.sort(Comparator.comparingLong(t -> t.ref));
    List<Ticket> withdrawn = new ArrayList<>();
    Set<Ticket> endedByCleanup = new HashSet<>();
    List<Ticket> cleanups = new ArrayList<>();
    for (Ticket t : tickets) {
      WithdrawResult how = t.withdrawState(reason);
      if (how != WithdrawResult.NOT_WITHDRAWN) {
        withdrawn.add(t);
        if (how == WithdrawResult.END_AFTER_CLEANUP) {
          cleanups.add(t);
          endedByCleanup.add(t);
        }
      }
    }
    CompletableFuture<?> done =
        cleanups.isEmpty() ? CompletableFuture.completedFuture(null) : pool.withdrawAsync(cleanups);
    for (Ticket t : withdrawn) {
      t.notifyWithdrawn();
      if (!endedByCleanup.contains(t)) {
        t.end();
      }
    }
    done.whenComplete(
        (r, e) -> {
          for (Ticket t : endedByCleanup) {
            t.end();
          }
        });
  }

  LimiterClosedException closedException() {
    return new LimiterClosedException("limiter of pool '" + pool.name() + "' is closed");
  }

  /** Waits for a close to finish, throwing what it failed with. */
  static void await(CompletionStage<Void> stage) {
    try {
      stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      Throwable cause = CommandRunner.unwrap(e);
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }
}
