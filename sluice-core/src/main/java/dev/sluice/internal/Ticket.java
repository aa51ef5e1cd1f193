/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.LimiterEvent;
import dev.sluice.spi.LeaseRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * One request's life in this JVM: pending (sent to the store), queued, granted, started, done, or
 * withdrawn. One atomic state decides every race — a grant against a cancel, a timeout against a
 * start — so exactly one party completes the request and exactly one does its store clean-up.
 *
 * <p>Clean-up rule: a request withdrawn while {@code PENDING} (its acquire not yet answered) is
 * cleaned up by whoever handles the acquire's answer; otherwise the withdrawing thread cleans up.
 * Every clean-up of a request that never started is a {@link Transitions#withdraw}, which also
 * gives back what a racing grant spent. {@link #end()} counts the request out of its limiter once.
 */
abstract class Ticket {
  static final int PENDING = 0;
  static final int QUEUED = 1;
  static final int GRANTED = 2;
  static final int STARTED = 3;
  static final int DONE = 4;
  static final int WITHDRAWN = 5;
  static final int WITHDRAWN_PENDING = 6;

  /** {@link #withdrawState}: this call did not withdraw the request. */
  static final long NOT_WITHDRAWN = -1;

  /** {@link #withdrawState}: withdrawn; the acquire's answer will do the store clean-up. */
  static final long CLEANED_BY_ANSWER = 0;

  private static final VarHandle STATE;
  private static final VarHandle WHY;
  private static final VarHandle ENDED;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(Ticket.class, "state", int.class);
      WHY = lookup.findVarHandle(Ticket.class, "why", Object.class);
      ENDED = lookup.findVarHandle(Ticket.class, "ended", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final LimiterImpl limiter;
  final long ref;
  final long weight;
  final long lifetime;
  final long deadlineNanos;
  final long queueWaitMillis;
  private volatile int state;
  private volatile long entryId;
  private volatile LeaseRecord lease;
  private volatile DeadlineQueue.Entry deadline;

  /** Why the request was withdrawn: a {@link Throwable}, or the caller's completion action. */
  private volatile Object why;

  private volatile boolean ended;

  /** Whether the limiter tracks this ticket as unstarted work that close() may reject. */
  volatile boolean tracked;

  /** The ticket whose future this thread was completing when it began this one's; see close. */
  Ticket outerCompletion;

  Ticket(
      LimiterImpl limiter,
      long ref,
      long weight,
      long lifetime,
      long deadlineNanos,
      long queueWaitMillis) {
    this.limiter = limiter;
    this.queueWaitMillis = queueWaitMillis;
    this.ref = ref;
    this.weight = weight;
    this.lifetime = lifetime;
    this.deadlineNanos = deadlineNanos;
  }

  /** Called once the request is granted and nobody withdrew it; delivers the grant. */
  abstract void onGranted();

  /**
   * Called once, by the withdrawing thread, after the request left this JVM's bookkeeping and
   * before its store clean-up.
   *
   * @param why the first reason given: a {@link Throwable}, or a caller's completion action
   */
  abstract void onWithdrawn(Object why);

  /** Calls {@link #onWithdrawn} for a request withdrawn through {@link #withdrawState}. */
  final void notifyWithdrawn() {
    onWithdrawn(why);
  }

  final int state() {
    return state;
  }

  final LeaseRecord lease() {
    return lease;
  }

  final Admission admission() {
    return limiter.shared().admission(lease);
  }

  /** The reason the request was withdrawn, or {@code null}. */
  final Object why() {
    return why;
  }

  /** Attaches the queue-timeout entry; cancels it at once if the request is already decided. */
  final void deadlineEntry(DeadlineQueue.Entry entry) {
    this.deadline = entry;
    int s = state;
    if (s != PENDING && s != QUEUED) {
      entry.cancel();
    }
  }

  /** Counts the request out of its limiter; later calls do nothing. */
  final void end() {
    if (ENDED.compareAndSet(this, false, true)) {
      limiter.ended();
    }
  }

  private boolean cas(int expected, int next) {
    return STATE.compareAndSet(this, expected, next);
  }

  /** The store's answer to the acquire: admitted at once. */
  final void acquiredNow(LeaseRecord granted) {
    this.lease = granted;
    this.entryId = granted.id();
    if (cas(PENDING, GRANTED)) {
      cancelDeadline();
      onGranted();
    } else {
      // Withdrawn before the answer arrived: this thread owns the clean-up.
      limiter.shared().withdrawThenEnd(granted.id(), this);
    }
  }

  /** The store's answer to the acquire: queued as {@code id}. */
  final void queued(long id) {
    this.entryId = id;
    if (cas(PENDING, QUEUED)) {
      limiter.event(LimiterEvent.Kind.QUEUED, this);
    } else if (state == WITHDRAWN_PENDING) {
      // The acquire registered the ticket as waiting after the withdrawal forgot it.
      limiter.shared().forget(this);
      limiter.shared().withdrawThenEnd(id, this);
    }
  }

  /** The store's answer to the acquire: nothing was queued or granted. */
  final void refused() {
    if (cas(PENDING, DONE) || state == WITHDRAWN_PENDING) {
      cancelDeadline();
      limiter.shared().forget(this);
      limiter.unstarted(this, false);
      end();
    }
  }

  /** A transition granted this waiting request. */
  final void granted(LeaseRecord granted) {
    this.lease = granted;
    this.entryId = granted.id();
    // Re-read on failure: the acquiring thread may move PENDING to QUEUED between two attempts.
    while (true) {
      int s = state;
      if (s != PENDING && s != QUEUED) {
        // Withdrawn: the withdraw transition (or the acquire's handler) gives the grant back.
        return;
      }
      if (cas(s, GRANTED)) {
        cancelDeadline();
        onGranted();
        return;
      }
    }
  }

  /** The store dropped this waiting request (queue deadline, reclaim, or a refusal). */
  final void dropped(Throwable reason) {
    WHY.compareAndSet(this, null, reason);
    while (true) {
      int s = state;
      if (s == QUEUED) {
        if (cas(QUEUED, WITHDRAWN)) {
          finishWithdraw();
          end();
          return;
        }
      } else if (s == PENDING) {
        if (cas(PENDING, WITHDRAWN_PENDING)) {
          finishWithdraw();
          return;
        }
      } else {
        return;
      }
    }
  }

  /**
   * Withdraws the request if it has not started, and cleans up in the store.
   *
   * @param reason a {@link Throwable}, or an action that completes the caller's future
   * @return true if this call withdrew it
   */
  final boolean withdraw(Object reason) {
    long cleanup = withdrawState(reason);
    if (cleanup == NOT_WITHDRAWN) {
      return false;
    }
    // The store clean-up is sent before the future completes, so whoever sees the future done
    // and inspects the pool sees the request gone; the ticket ends after the future completed.
    java.util.concurrent.CompletableFuture<?> cleaned =
        cleanup > 0 ? limiter.shared().withdrawAsync(List.of(cleanup)) : null;
    onWithdrawn(why);
    if (cleaned != null) {
      cleaned.whenComplete((r, e) -> end());
    }
    return true;
  }

  /**
   * Withdraws the request if it has not started, leaving the store clean-up and the call of {@link
   * #onWithdrawn} to the caller.
   *
   * @return the queue entry or lease id to withdraw in the store, {@link #CLEANED_BY_ANSWER}, or
   *     {@link #NOT_WITHDRAWN}
   */
  final long withdrawState(Object reason) {
    WHY.compareAndSet(this, null, reason);
    while (true) {
      int s = state;
      int next = s == PENDING ? WITHDRAWN_PENDING : WITHDRAWN;
      if (s != PENDING && s != QUEUED && s != GRANTED) {
        return NOT_WITHDRAWN;
      }
      if (cas(s, next)) {
        forgetWithdrawn();
        return s == PENDING ? CLEANED_BY_ANSWER : entryId;
      }
    }
  }

  private void forgetWithdrawn() {
    cancelDeadline();
    limiter.shared().forget(this);
    limiter.unstarted(this, false);
  }

  private void finishWithdraw() {
    forgetWithdrawn();
    onWithdrawn(why);
  }

  /** Moves a granted request to started; false if it was withdrawn first. */
  final boolean start() {
    if (cas(GRANTED, STARTED)) {
      cancelDeadline();
      limiter.unstarted(this, false);
      return true;
    }
    return false;
  }

  /** Marks a started request done; its lease is released by the caller. */
  final void done() {
    state = DONE;
  }

  private void cancelDeadline() {
    DeadlineQueue.Entry d = deadline;
    if (d != null) {
      d.cancel();
    }
  }
}
