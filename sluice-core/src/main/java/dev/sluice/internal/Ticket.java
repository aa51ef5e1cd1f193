/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.LimiterEvent;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * One request's life in this JVM: pending (sent to the store), queued, granted, started, done, or
 * withdrawn. One atomic state decides every race — a grant against a cancel, a timeout against a
 * start — so exactly one party completes the request and exactly one does its store clean-up.
 *
 * <p>Clean-up rule: the withdrawing thread sends a {@link dev.sluice.spi.PoolCommand.Withdraw} of
 * the request's reference at once, so every later operation of this JVM sees it gone; it also gives
 * back what a racing grant spent, and its completion ends the request. The acquire is sent under
 * this ticket's monitor, and a withdrawal of a {@code PENDING} request takes the same monitor:
 * either the acquire was sent first, and the withdrawal, sent after it, cleans up whatever it made;
 * or the acquire is never sent, and there is nothing to clean up. A request the store itself
 * dropped needs no clean-up. {@link #end()} counts the request out of its limiter once.
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
  static final int NOT_WITHDRAWN = -1;

  /** {@link #withdrawState}: withdrawn before its acquire was sent; nothing to clean up. */
  static final int END_NOW = 0;

  /** {@link #withdrawState}: withdrawn; end it once the store withdrawal has been applied. */
  static final int END_AFTER_CLEANUP = 1;

  /** {@link #handOff}: the request took the unit, and the store still has it queued. */
  static final int HANDED_OFF_CLEANUP = 1;

  /** {@link #handOff}: the request took the unit before its acquire was sent. */
  static final int HANDED_OFF = 0;

  /** {@link #handOff}: the request was granted or withdrawn first; the unit is still free. */
  static final int NOT_HANDED_OFF = -1;

  private static final VarHandle STATE;
  private static final VarHandle LEASE;
  private static final VarHandle WHY;
  private static final VarHandle ENDED;
  private static final VarHandle ANNOUNCE;

  /** {@link #announce}: the store queued it and its QUEUED event may not be out yet. */
  private static final int EVENT_PENDING = 0;

  /** {@link #announce}: the QUEUED event is out; a pass delivers its grant at once. */
  private static final int EVENT_OUT = 1;

  /** {@link #announce}: a pass took it first; the QUEUED event's sender delivers the grant. */
  private static final int GRANT_AFTER_EVENT = 2;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(Ticket.class, "state", int.class);
      LEASE = lookup.findVarHandle(Ticket.class, "lease", LeaseRecord.class);
      WHY = lookup.findVarHandle(Ticket.class, "why", Object.class);
      ENDED = lookup.findVarHandle(Ticket.class, "ended", boolean.class);
      ANNOUNCE = lookup.findVarHandle(Ticket.class, "announce", int.class);
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

  /** Set once: by the store's grant, or by a local hand-off that won the ticket first. */
  private volatile LeaseRecord lease;

  /**
   * Whether a local hand-off claimed the lease: set before the hand-off's state change, so whoever
   * sees {@code GRANTED} afterwards sees it too. It is never cleared; a request withdrawn before
   * the hand-off's state change holds no unit, whatever this says.
   */
  private volatile boolean handedOff;

  /** Whether the QUEUED event was sent: a request held in its JVM announces it when held. */
  private volatile boolean announcedQueued;

  /** Who delivers a pass's grant to a request the store queued; see {@link #deliverPass}. */
  private volatile int announce = EVENT_PENDING;

  /** Whether this request was withdrawn while it held a unit passed on in this JVM. */
  private volatile boolean heldPassedUnit;

  private volatile DeadlineQueue.Entry deadline;

  /** Why the request was withdrawn: a {@link Throwable}, or the caller's completion action. */
  private volatile Object why;

  private volatile boolean ended;

  /** Whether the acquire was sent to the store; guarded by this ticket's monitor. */
  private boolean submitted;

  /** Whether the limiter tracks this ticket as unstarted work that close() may reject. */
  volatile boolean tracked;

  /** The store's queue entry for this request, once its acquire was answered "queued"; else 0. */
  private volatile long storeEntryId;

  private volatile long storeQueueDeadline = PoolState.NEVER;

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

  /** Records the store's queue entry, before the request can be included in a sync. */
  final void storeEntry(long entryId, long queueDeadline) {
    storeQueueDeadline = queueDeadline;
    storeEntryId = entryId;
  }

  final long storeEntryId() {
    return storeEntryId;
  }

  final long storeQueueDeadline() {
    return storeQueueDeadline;
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
    if (!LEASE.compareAndSet(this, null, granted)) {
      // A hand-off won: the withdrawal it sent after this acquire gives this grant back.
      return;
    }
    if (cas(PENDING, GRANTED)) {
      cancelDeadline();
      onGranted();
    }
    // Otherwise withdrawn meanwhile: the withdrawal, sent after this acquire, gives it back.
  }

  /**
   * Called under this ticket's monitor just before its acquire is sent.
   *
   * @return false if it was withdrawn first: then the acquire must not be sent
   */
  final boolean beginSubmit() {
    if (state != PENDING) {
      return false;
    }
    submitted = true;
    return true;
  }

  /** The store's answer to the acquire: queued as {@code id}. */
  final void queued(long id) {
    if (cas(PENDING, QUEUED)) {
      // A pass candidate before its QUEUED event goes out, so a unit released by whoever saw the
      // event can be passed to it; the pass leaves its grant to this thread (see deliverPass).
      limiter.shared().queuedAtPool(this);
      try {
        if (!announcedQueued) {
          limiter.event(LimiterEvent.Kind.QUEUED, this);
        }
      } finally {
        // Even past a listener's Error: a deferred pass holds a unit only this call delivers.
        if (!ANNOUNCE.compareAndSet(this, EVENT_PENDING, EVENT_OUT)) {
          // A pass's grant waited for the event; from now on the request may start.
          announce = EVENT_OUT;
          if (state == GRANTED) {
            // Unless it was withdrawn meanwhile: the withdrawal passed the unit on or gave it back.
            onGranted();
          }
        }
      }
    } else if (state == WITHDRAWN_PENDING) {
      // The acquire registered the ticket as waiting after the withdrawal forgot it.
      limiter.shared().forget(this);
    }
  }

  /**
   * Whether a grant may start: not while a pass's grant waits for the QUEUED event to go out (see
   * {@link #deliverPass}), so a waiting thread that sees GRANTED early does not run ahead of both
   * events.
   */
  final boolean grantDelivered() {
    return announce != GRANT_AFTER_EVENT;
  }

  /**
   * Delivers the grant of a unit passed to a request the store had queued ({@link
   * #HANDED_OFF_CLEANUP}): at once if its QUEUED event is out, else by the thread sending that
   * event, right after it, so no listener sees GRANTED before QUEUED.
   */
  final void deliverPass() {
    if (!ANNOUNCE.compareAndSet(this, EVENT_PENDING, GRANT_AFTER_EVENT)) {
      onGranted();
    }
  }

  /** The request waits in its JVM, not yet sent to the store: it is queued all the same. */
  final void heldInJvm() {
    announcedQueued = true;
    limiter.event(LimiterEvent.Kind.QUEUED, this);
  }

  /** The store's answer to the acquire: nothing was queued or granted. */
  final void refused() {
    if (cas(PENDING, DONE)) {
      cancelDeadline();
      limiter.shared().forget(this);
      limiter.unstarted(this, false);
      end();
    } else if (state == WITHDRAWN_PENDING) {
      limiter.shared().forget(this);
    }
  }

  /** A transition granted this waiting request. */
  final void granted(LeaseRecord granted) {
    if (!LEASE.compareAndSet(this, null, granted)) {
      return;
    }
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

  /**
   * Whether this request was withdrawn after a unit was passed to it: the withdrawal must pass the
   * unit on or give it back, since the store knows it under another request.
   */
  final boolean heldPassedUnit() {
    return heldPassedUnit;
  }

  /**
   * Gives this waiting request a unit released in this JVM, if nothing granted or withdrew it
   * first. The caller sends the store clean-up the answer asks for, then calls {@link #onGranted}.
   *
   * @param unit the lease the request now holds
   * @return {@link #HANDED_OFF_CLEANUP}, {@link #HANDED_OFF} or {@link #NOT_HANDED_OFF}
   */
  final int handOff(LeaseRecord unit) {
    int s = state;
    if (s == PENDING) {
      // Under the monitor, so an acquire not yet sent is never sent: see beginSubmit. One already
      // sent waits for its answer: a store may apply work of its own thread first, and the
      // withdrawal a pass sends must never reach the store before the acquire it cleans up.
      synchronized (this) {
        if (submitted || !claim(unit) || !cas(PENDING, GRANTED)) {
          return NOT_HANDED_OFF;
        }
      }
      cancelDeadline();
      return HANDED_OFF;
    }
    if (s == QUEUED && claim(unit) && cas(QUEUED, GRANTED)) {
      cancelDeadline();
      return HANDED_OFF_CLEANUP;
    }
    // Granted or withdrawn first: nobody reads the lease of a withdrawn request.
    return NOT_HANDED_OFF;
  }

  private boolean claim(LeaseRecord unit) {
    if (!LEASE.compareAndSet(this, null, unit)) {
      return false;
    }
    handedOff = true;
    return true;
  }

  /** The store dropped this waiting request (queue deadline, reclaim, or a refusal). */
  final void dropped(Throwable reason) {
    WHY.compareAndSet(this, null, reason);
    while (true) {
      int s = state;
      if (s != QUEUED && s != PENDING) {
        return;
      }
      // The store holds nothing of it any more, so there is nothing to clean up.
      if (cas(s, WITHDRAWN)) {
        finishWithdraw();
        end();
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
    int how = withdrawState(reason);
    if (how == NOT_WITHDRAWN) {
      return false;
    }
    // The store clean-up is sent before the future completes, so whoever sees the future done
    // and inspects the pool sees the request gone; the ticket ends after the future completed.
    java.util.concurrent.CompletableFuture<?> cleaned =
        how == END_AFTER_CLEANUP ? limiter.shared().withdrawAsync(List.of(this)) : null;
    onWithdrawn(why);
    if (cleaned != null) {
      cleaned.whenComplete((r, e) -> end());
    } else {
      end();
    }
    return true;
  }

  /**
   * Withdraws the request if it has not started, leaving the store clean-up and the call of {@link
   * #onWithdrawn} to the caller.
   *
   * @return {@link #END_NOW}, {@link #END_AFTER_CLEANUP} or {@link #NOT_WITHDRAWN}
   */
  final int withdrawState(Object reason) {
    WHY.compareAndSet(this, null, reason);
    while (true) {
      int s = state;
      if (s == PENDING) {
        boolean sent;
        synchronized (this) {
          if (!cas(PENDING, WITHDRAWN_PENDING)) {
            continue;
          }
          sent = submitted;
        }
        // Outside the monitor: forgetting may send this JVM's next held request, under its own.
        forgetWithdrawn();
        return sent ? END_AFTER_CLEANUP : END_NOW;
      } else if (s == QUEUED || s == GRANTED) {
        if (cas(s, WITHDRAWN)) {
          heldPassedUnit = s == GRANTED && handedOff;
          forgetWithdrawn();
          return END_AFTER_CLEANUP;
        }
      } else {
        return NOT_WITHDRAWN;
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
