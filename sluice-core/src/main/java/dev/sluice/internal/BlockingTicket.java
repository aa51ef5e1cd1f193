/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.LimiterEvent;
import java.util.concurrent.locks.LockSupport;

/**
 * A request made by a thread that waits for it: {@code acquire}, {@code tryAcquire}, {@code call}.
 * The thread parks until the request is granted or withdrawn (timeout, close, failure) or the
 * thread is interrupted; no timed polling.
 */
final class BlockingTicket extends Ticket {
  private final Thread waiter;

  BlockingTicket(
      LimiterImpl limiter,
      long ref,
      long weight,
      long lifetime,
      long deadlineNanos,
      long queueWaitMillis) {
    super(limiter, ref, weight, lifetime, deadlineNanos, queueWaitMillis);
    this.waiter = Thread.currentThread();
  }

  @Override
  void onGranted() {
    limiter.events().send(LimiterEvent.Kind.GRANTED, this);
    if (waiter != Thread.currentThread()) {
      LockSupport.unpark(waiter);
    }
  }

  @Override
  void onWithdrawn(WithdrawReason why) {
    limiter.events().send(WithdrawReason.eventOf(why), this);
    if (waiter != Thread.currentThread()) {
      LockSupport.unpark(waiter);
    }
  }

  /**
   * Waits until granted or withdrawn.
   *
   * @return true if granted and now started; false if withdrawn (see {@link #withdrawal()})
   * @throws InterruptedException if interrupted first; the request is withdrawn then
   */
  boolean await() throws InterruptedException {
    while (true) {
      TicketState s = state();
      if (s == TicketState.GRANTED && grantDelivered()) {
        if (start()) {
          return true;
        }
        continue;
      }
      if (s == TicketState.WITHDRAWN
          || s == TicketState.WITHDRAWN_PENDING
          || s == TicketState.DONE) {
        return false;
      }
      LockSupport.park(this);
      if (Thread.interrupted()) {
        if (fail(new InterruptedException())) {
          throw new InterruptedException();
        }
        // Lost the race to a grant or a withdrawal; keep the interrupt for the caller.
        Thread.currentThread().interrupt();
        if (state() == TicketState.GRANTED && start()) {
          return true;
        }
        return false;
      }
    }
  }

  /** Why the request was withdrawn, or {@code null}; set before the state says withdrawn. */
  Throwable withdrawal() {
    return why() instanceof WithdrawReason.Failure f ? f.cause() : null;
  }
}
