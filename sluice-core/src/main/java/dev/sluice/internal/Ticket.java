/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import static dev.sluice.internal.TicketState.DONE;
import static dev.sluice.internal.TicketState.GRANTED;
import static dev.sluice.internal.TicketState.PENDING;
import static dev.sluice.internal.TicketState.QUEUED;
import static dev.sluice.internal.TicketState.STARTED;
import static dev.sluice.internal.TicketState.WITHDRAWN;
import static dev.sluice.internal.TicketState.WITHDRAWN_PENDING;

import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.ReportedOutcome;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One request's life in this JVM: pending (sent to the store), queued, granted, started, done, or
 * withdrawn. One atomic state ({@link TicketCore}) decides every race — a grant against a cancel, a
 * timeout against a start — so exactly one party completes the request and exactly one does its
 * store clean-up.
 *
 * <p>Clean-up rule: the withdrawing thread sends a {@link dev.sluice.spi.PoolCommand.Withdraw} of
 * the request's reference at once, so every later operation of this JVM sees it gone; it also gives
 * back what a racing grant spent, and its completion ends the request. The acquire is sent under
 * this ticket's monitor, and a withdrawal of a {@code PENDING} request takes the same monitor:
 * either the acquire was sent first, and the withdrawal, sent after it, cleans up whatever it made;
 * or the acquire is never sent, and there is nothing to clean up. A request the store itself
 * dropped needs no clean-up. {@link #end()} counts the request out of its limiter once.
 */
abstract class Ticket extends HandOffTicket {
  private static final VarHandle OUTCOME;

  static {
    try {
      OUTCOME =
          MethodHandles.lookup().findVarHandle(Ticket.class, "outcome", ReportedOutcome.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // The three fields below are plain: they are set before the acquire leaves, and a ticket reaches
  // other threads only through safe hand-overs (the acquire's monitor, the hand-offs' concurrent
  // maps, executors). A volatile store would cost a fence per request: about 6 ns each here.

  /** Set before the acquire leaves: refuse rather than wait while the circuit is open. */
  boolean failFast;

  /** Set before the acquire leaves: continues work accepted before a drain (a retry). */
  boolean continuing;

  /**
   * Set before the acquire leaves: the managed execution this request is an attempt of, which the
   * pool records as running; empty for none.
   */
  String operation = "";

  /**
   * The clock reading taken when a blocking request was checked before it starts, or {@link
   * Requests#NO_READING}: the caller's attempt starts at that moment and needs no reading of its
   * own. Written and read by the thread that starts the request only.
   */
  long startNanos = Requests.NO_READING;

  /**
   * The requesting thread's reading of the store clock's monotonic time just before the acquire
   * left, which the store may take its time from ({@link dev.sluice.spi.PoolSession#execute(
   * dev.sluice.spi.PoolCommand, long)}), or {@link Requests#NO_READING}. Written and read by the
   * requesting thread only.
   */
  long acquireReadNanos = Requests.NO_READING;

  /**
   * Whether the store granted this request in its acquire's own answer, applied at {@link
   * #acquireReadNanos} without waiting for another command ({@link
   * dev.sluice.spi.PoolOutcome#atIssuersReading()}): it was granted at that reading (a unit passed
   * in this JVM meanwhile came no later). Written by the thread that handles the answer, before it
   * delivers the grant; the memory store, the only one that says so, answers on the requesting
   * thread, which then starts the request.
   */
  boolean grantedAtReading;

  /**
   * The reading taken when a blocking attempt's task returned, or {@link Requests#NO_READING}: its
   * release's report takes its time from it, and the caller judges its deadline by it. Written and
   * read by the thread that ran the task only.
   */
  long endNanos = Requests.NO_READING;

  /**
   * The operation whose record the release's report ends (the last attempt's); empty for none. Set
   * before {@link #reportOutcome}, whose store of the outcome publishes it.
   */
  String finishes = "";

  /** Stored with release semantics after the fields it publishes; read before them. */
  private volatile ReportedOutcome outcome;

  /** Published by the store of {@link #outcome}. */
  private long retryAfterMillis;

  Ticket(
      LimiterImpl limiter,
      long ref,
      long weight,
      long lifetime,
      long deadlineNanos,
      long queueWaitMillis) {
    super(limiter, ref, weight, lifetime, deadlineNanos, queueWaitMillis);
  }

  /**
   * Called once, by the withdrawing thread, after the request left this JVM's bookkeeping and
   * before its store clean-up.
   *
   * @param why the first reason given
   */
  abstract void onWithdrawn(WithdrawReason why);

  /**
   * Managed execution's hook: how the attempt that holds this request's lease ended. Set before the
   * lease is released (the task returns, or the lease is closed); the release then reports it to
   * the pool's shared cooldown and circuit breaker in the same command ({@link
   * dev.sluice.spi.PoolCommand.Report}). The last call wins; without one the release is neutral.
   *
   * @param outcome how the attempt ended
   * @param retryAfterMillis the provider's retry-after, 0 for none; not with a success
   */
  final void reportOutcome(ReportedOutcome outcome, long retryAfterMillis) {
    java.util.Objects.requireNonNull(outcome, "outcome");
    if (retryAfterMillis != 0) {
      // The command checks the pair; a bad one must fail here, not at the release.
      new dev.sluice.spi.PoolCommand.Report("", 0, outcome, retryAfterMillis);
    }
    this.retryAfterMillis = retryAfterMillis;
    // A release store: whoever reads the outcome sees the retry-after and what it finishes. No
    // reader depends on a later load of this thread's being ordered after it, so no fence.
    OUTCOME.setRelease(this, outcome);
  }

  /** Whether an outcome was set; read it before {@link #retryAfterMillis} and {@link #finishes}. */
  final boolean hasOutcome() {
    return outcome != null;
  }

  final ReportedOutcome outcome() {
    return outcome;
  }

  final long retryAfterMillis() {
    return retryAfterMillis;
  }

  /** Calls {@link #onWithdrawn} for a request withdrawn through {@link #withdrawState}. */
  final void notifyWithdrawn() {
    onWithdrawn(why());
  }

  /** The store's answer to the acquire: admitted at once. */
  final void acquiredNow(LeaseRecord granted) {
    if (!takeLease(granted)) {
      // A hand-off won: the withdrawal it sent after this acquire gives this grant back.
      return;
    }
    if (cas(PENDING, GRANTED)) {
      cancelDeadline();
      onGranted();
    }
    // Otherwise withdrawn meanwhile: the withdrawal, sent after this acquire, gives it back.
  }

  /** The store's answer to the acquire: queued. */
  final void queued() {
    if (cas(PENDING, QUEUED)) {
      // A pass candidate before its QUEUED event goes out, so a unit released by whoever saw the
      // event can be passed to it; the pass leaves its grant to this thread (see deliverPass).
      limiter.shared().queuedAtPool(this);
      announceQueued();
    } else if (state() == WITHDRAWN_PENDING) {
      // The acquire registered the ticket as waiting after the withdrawal forgot it.
      limiter.shared().forget(this);
    }
  }

  /** The store's answer to the acquire: nothing was queued or granted. */
  final void refused() {
    if (cas(PENDING, DONE)) {
      cancelDeadline();
      limiter.shared().forget(this);
      limiter.lifecycle().untrack(this);
      end();
    } else if (state() == WITHDRAWN_PENDING) {
      limiter.shared().forget(this);
    }
  }

  /** A transition granted this waiting request. */
  final void granted(LeaseRecord granted) {
    if (!takeLease(granted)) {
      return;
    }
    // Re-read on failure: the acquiring thread may move PENDING to QUEUED between two attempts.
    while (true) {
      TicketState s = state();
      if (!s.waiting()) {
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
    because(new WithdrawReason.Failure(reason));
    while (true) {
      TicketState s = state();
      if (!s.waiting()) {
        return;
      }
      // The store holds nothing of it any more, so there is nothing to clean up.
      if (cas(s, WITHDRAWN)) {
        forgetWithdrawn();
        onWithdrawn(why());
        end();
        return;
      }
    }
  }

  /** Withdraws the request with a failure, if it has not started; see {@link #withdraw}. */
  final boolean fail(Throwable reason) {
    return withdraw(new WithdrawReason.Failure(reason));
  }

  /**
   * Withdraws the request if it has not started, and cleans up in the store.
   *
   * @return true if this call withdrew it
   */
  final boolean withdraw(WithdrawReason reason) {
    WithdrawResult how = withdrawState(reason);
    if (how == WithdrawResult.NOT_WITHDRAWN) {
      return false;
    }
    // The store clean-up is sent before the future completes, so whoever sees the future done
    // and inspects the pool sees the request gone; the ticket ends after the future completed.
    CompletableFuture<?> cleaned =
        how == WithdrawResult.END_AFTER_CLEANUP
            ? limiter.shared().withdrawAsync(List.of(this))
            : null;
    onWithdrawn(why());
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
   */
  final WithdrawResult withdrawState(WithdrawReason reason) {
    because(reason);
    while (true) {
      TicketState s = state();
      if (s == PENDING) {
        boolean sent;
        synchronized (this) {
          if (!cas(PENDING, WITHDRAWN_PENDING)) {
            continue;
          }
          sent = submitted();
        }
        // Outside the monitor: forgetting may send this JVM's next held request, under its own.
        forgetWithdrawn();
        return sent ? WithdrawResult.END_AFTER_CLEANUP : WithdrawResult.END_NOW;
      } else if (s == QUEUED || s == GRANTED) {
        if (cas(s, WITHDRAWN)) {
          withdrawnFrom(s);
          forgetWithdrawn();
          return WithdrawResult.END_AFTER_CLEANUP;
        }
      } else {
        return WithdrawResult.NOT_WITHDRAWN;
      }
    }
  }

  private void forgetWithdrawn() {
    cancelDeadline();
    limiter.shared().forget(this);
    limiter.lifecycle().untrack(this);
  }

  /** Moves a granted request to started; false if it was withdrawn first. */
  final boolean start() {
    if (cas(GRANTED, STARTED)) {
      cancelDeadline();
      limiter.lifecycle().untrack(this);
      return true;
    }
    return false;
  }
}
