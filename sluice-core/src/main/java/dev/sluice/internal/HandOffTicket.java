/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static dev.sluice.internal.TicketState.GRANTED;
import static dev.sluice.internal.TicketState.PENDING;
import static dev.sluice.internal.TicketState.QUEUED;

import dev.sluice.LimiterEvent;
import dev.sluice.spi.LeaseRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What local hand-offs ({@link HandOffs}) add to a ticket's life: whether its acquire was sent, a
 * unit passed to it inside this JVM, and the order of its QUEUED event against a pass's grant (no
 * listener sees GRANTED before QUEUED). The store answers and withdrawals are {@link Ticket}'s.
 *
 * <p>Thread-safe.
 */
abstract class HandOffTicket extends TicketCore {
  private static final VarHandle ANNOUNCE;

  /** Who delivers the grant of a unit passed to a request the store queued; see deliverPass. */
  private enum Announce {
    /** The store queued it and its QUEUED event may not be out yet. */
    EVENT_PENDING,
    /** The QUEUED event is out; a pass delivers its grant at once. */
    EVENT_OUT,
    /** A pass took it first; the QUEUED event's sender delivers the grant. */
    GRANT_AFTER_EVENT
  }

  static {
    try {
      ANNOUNCE =
          MethodHandles.lookup().findVarHandle(HandOffTicket.class, "announce", Announce.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Whether a local hand-off claimed the lease: set before the hand-off's state change, so whoever
   * sees {@code GRANTED} afterwards sees it too. It is never cleared; a request withdrawn before
   * the hand-off's state change holds no unit, whatever this says.
   */
  private volatile boolean handedOff;

  /** Whether the QUEUED event was sent: a request held in its JVM announces it when held. */
  private volatile boolean announcedQueued;

  /** Set in the constructor with a plain store; see {@link TicketCore}'s. */
  private volatile Announce announce;

  /** Whether this request was withdrawn while it held a unit passed on in this JVM. */
  private volatile boolean heldPassedUnit;

  /** Whether the acquire was sent to the store; guarded by this ticket's monitor. */
  private boolean submitted;

  HandOffTicket(
      LimiterImpl limiter,
      long ref,
      long weight,
      long lifetime,
      long deadlineNanos,
      long queueWaitMillis) {
    super(limiter, ref, weight, lifetime, deadlineNanos, queueWaitMillis);
    ANNOUNCE.set(this, Announce.EVENT_PENDING);
  }

  /** Called once the request is granted and nobody withdrew it; delivers the grant. */
  abstract void onGranted();

  /**
   * Called under this ticket's monitor just before its acquire is sent.
   *
   * @return false if it was withdrawn first: then the acquire must not be sent
   */
  final boolean beginSubmit() {
    if (state() != PENDING) {
      return false;
    }
    submitted = true;
    return true;
  }

  /** Whether the acquire was sent; call it under this ticket's monitor. */
  final boolean submitted() {
    return submitted;
  }

  /**
   * Sends the QUEUED event of a request the store just queued, unless it went out when the request
   * was held, then delivers a pass's grant that waited for it.
   */
  final void announceQueued() {
    try {
      if (!announcedQueued) {
        limiter.events().send(LimiterEvent.Kind.QUEUED, this);
      }
    } finally {
      // Even past a listener's Error: a deferred pass holds a unit only this call delivers.
      if (!ANNOUNCE.compareAndSet(this, Announce.EVENT_PENDING, Announce.EVENT_OUT)) {
        // A pass's grant waited for the event; from now on the request may start.
        announce = Announce.EVENT_OUT;
        if (state() == GRANTED) {
          // Unless it was withdrawn meanwhile: the withdrawal passed the unit on or gave it back.
          onGranted();
        }
      }
    }
  }

  /**
   * Whether a grant may start: not while a pass's grant waits for the QUEUED event to go out (see
   * {@link #deliverPass}), so a waiting thread that sees GRANTED early does not run ahead of both
   * events.
   */
  final boolean grantDelivered() {
    return announce != Announce.GRANT_AFTER_EVENT;
  }

  /**
   * Delivers the grant of a unit passed to a request the store had queued ({@link
   * HandOffResult#HANDED_OFF_CLEANUP}): at once if its QUEUED event is out, else by the thread
   * sending that event, right after it, so no listener sees GRANTED before QUEUED.
   */
  final void deliverPass() {
    if (!ANNOUNCE.compareAndSet(this, Announce.EVENT_PENDING, Announce.GRANT_AFTER_EVENT)) {
      onGranted();
    }
  }

  /** The request waits in its JVM, not yet sent to the store: it is queued all the same. */
  final void heldInJvm() {
    announcedQueued = true;
    limiter.events().send(LimiterEvent.Kind.QUEUED, this);
  }

  /**
   * Gives this waiting request a unit released in this JVM, if nothing granted or withdrew it
   * first. The caller sends the store clean-up the answer asks for, then calls {@link #onGranted}.
   *
   * @param unit the lease the request now holds
   */
  final HandOffResult handOff(LeaseRecord unit) {
    TicketState s = state();
    if (s == PENDING) {
      // Under the monitor, so an acquire not yet sent is never sent: see beginSubmit. One already
      // sent waits for its answer: a store may apply work of its own thread first, and the
      // withdrawal a pass sends must never reach the store before the acquire it cleans up.
      synchronized (this) {
        if (submitted || !claim(unit) || !cas(PENDING, GRANTED)) {
          return HandOffResult.NOT_HANDED_OFF;
        }
      }
      cancelDeadline();
      return HandOffResult.HANDED_OFF;
    }
    if (s == QUEUED && claim(unit) && cas(QUEUED, GRANTED)) {
      cancelDeadline();
      return HandOffResult.HANDED_OFF_CLEANUP;
    }
    // Granted or withdrawn first: nobody reads the lease of a withdrawn request.
    return HandOffResult.NOT_HANDED_OFF;
  }

  private boolean claim(LeaseRecord unit) {
    if (!takeLease(unit)) {
      return false;
    }
    handedOff = true;
    return true;
  }

  /** Records, for a request withdrawn from state {@code s}, whether it held a passed unit. */
  final void withdrawnFrom(TicketState s) {
    heldPassedUnit = s == GRANTED && handedOff;
  }

  /**
   * Whether this request was withdrawn after a unit was passed to it: the withdrawal must pass the
   * unit on or give it back, since the store knows it under another request.
   */
  final boolean heldPassedUnit() {
    return heldPassedUnit;
  }
}
