/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.spi.LeaseRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One request's life in this JVM: pending (sent to the store), queued, granted, started, done, or
 * withdrawn. One atomic state decides every race — a grant against a cancel, a timeout against a
 * start — so exactly one party completes the request and exactly one does its store clean-up.
 *
 * <p>Clean-up rule: a request withdrawn while {@code PENDING} (its acquire not yet answered) is
 * cleaned up by whoever handles the acquire's answer; otherwise the withdrawing thread cleans up.
 * Each ticket calls {@link LimiterImpl#ended()} exactly once, after its last store work.
 */
abstract class Ticket {
  static final int PENDING = 0;
  static final int QUEUED = 1;
  static final int GRANTED = 2;
  static final int STARTED = 3;
  static final int DONE = 4;
  static final int WITHDRAWN = 5;
  static final int WITHDRAWN_PENDING = 6;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Ticket.class, "state", int.class);
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
  private DeadlineQueue.Entry deadline;

  /** Whether the limiter tracks this ticket as unstarted work that close() may reject. */
  volatile boolean tracked;

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

  /** Called once when the request was withdrawn, with the reason, by the withdrawing thread. */
  abstract void onWithdrawn(Throwable reason);

  final int state() {
    return state;
  }

  final LeaseRecord lease() {
    return lease;
  }

  final long entryId() {
    return entryId;
  }

  final Admission admission() {
    return limiter.shared().admission(lease);
  }

  final void deadlineEntry(DeadlineQueue.Entry entry) {
    this.deadline = entry;
  }

  private boolean cas(int expected, int next) {
    return STATE.compareAndSet(this, expected, next);
  }

  /** The store's answer to the acquire: admitted at once. */
  final void acquiredNow(LeaseRecord granted) {
    this.lease = granted;
    this.entryId = granted.id();
    if (cas(PENDING, GRANTED)) {
      onGranted();
    } else {
      // Withdrawn before the answer arrived: this thread owns the clean-up.
      limiter.shared().releaseThenEnd(granted.id(), limiter);
    }
  }

  /** The store's answer to the acquire: queued as {@code id}. */
  final void queued(long id) {
    this.entryId = id;
    if (cas(PENDING, QUEUED)) {
      limiter.event(dev.sluice.LimiterEvent.Kind.QUEUED, this);
    } else if (state == WITHDRAWN_PENDING) {
      limiter.shared().withdrawThenEnd(id, limiter);
    }
  }

  /** The store's answer to the acquire: nothing was queued or granted. */
  final void refused() {
    if (cas(PENDING, DONE) || state == WITHDRAWN_PENDING) {
      limiter.shared().forget(this);
      limiter.unstarted(this, false);
      limiter.ended();
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
        // Withdrawn: the withdraw transition (or the acquire's handler) releases the grant.
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
    while (true) {
      int s = state;
      if (s == QUEUED) {
        if (cas(QUEUED, WITHDRAWN)) {
          finishWithdraw(reason);
          limiter.ended();
          return;
        }
      } else if (s == PENDING) {
        if (cas(PENDING, WITHDRAWN_PENDING)) {
          finishWithdraw(reason);
          return;
        }
      } else {
        return;
      }
    }
  }

  /**
   * Withdraws the request if it has not started.
   *
   * @param reason why, passed to {@link #onWithdrawn}
   * @return true if this call withdrew it
   */
  final boolean withdraw(Throwable reason) {
    while (true) {
      int s = state;
      switch (s) {
        case PENDING:
          if (cas(PENDING, WITHDRAWN_PENDING)) {
            finishWithdraw(reason);
            return true;
          }
          break;
        case QUEUED:
          if (cas(QUEUED, WITHDRAWN)) {
            finishWithdraw(reason);
            limiter.shared().withdrawThenEnd(entryId, limiter);
            return true;
          }
          break;
        case GRANTED:
          if (cas(GRANTED, WITHDRAWN)) {
            finishWithdraw(reason);
            limiter.shared().releaseThenEnd(lease.id(), limiter);
            return true;
          }
          break;
        default:
          return false;
      }
    }
  }

  private void finishWithdraw(Throwable reason) {
    cancelDeadline();
    limiter.shared().forget(this);
    limiter.unstarted(this, false);
    onWithdrawn(reason);
  }

  /** Moves a granted request to started; false if it was withdrawn first. */
  final boolean start() {
    if (cas(GRANTED, STARTED)) {
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
