/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.TimeSource;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A request's identity and the atomic cells every party races on: its {@link TicketState}, its
 * lease (set once), why it was withdrawn (set once) and whether it was counted out of its limiter.
 * The transitions that use them are {@link Ticket}'s.
 *
 * <p>Thread-safe.
 */
abstract class TicketCore implements InFlight {
  private static final VarHandle STATE;
  private static final VarHandle LEASE;
  private static final VarHandle WHY;
  private static final VarHandle END;
  private static final VarHandle STORE_QUEUE_DEADLINE;

  /**
   * Not ended yet: the request counts out when it ends (or its execution does; see {@link #end}).
   */
  private static final int RUNNING = 0;

  /** Ended; counted out, unless it borrows its execution's count, which the execution returns. */
  private static final int ENDED = 1;

  /** Not ended, and its execution ended: it counts out for the execution when it ends. */
  private static final int OWES_COUNT = 2;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(TicketCore.class, "state", TicketState.class);
      LEASE = lookup.findVarHandle(TicketCore.class, "lease", LeaseRecord.class);
      WHY = lookup.findVarHandle(TicketCore.class, "why", WithdrawReason.class);
      END = lookup.findVarHandle(TicketCore.class, "end", int.class);
      STORE_QUEUE_DEADLINE =
          lookup.findVarHandle(TicketCore.class, "storeQueueDeadline", long.class);
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
  private volatile TicketState state;

  /** Set once: by the store's grant, or by a local hand-off that won the ticket first. */
  private volatile LeaseRecord lease;

  /** Why the request was withdrawn; the first reason given wins. */
  private volatile WithdrawReason why;

  /** Where the request is on its way to counted out: one of the constants above. */
  private volatile int end;

  /**
   * Whether the request borrows the in-flight count of the execution it is an attempt of rather
   * than taking its own. Plain: set before the request is published.
   */
  private boolean borrowsCount;

  private volatile TimeSource.Timer deadline;

  /** The store's queue entry for this request, once its acquire was answered "queued"; else 0. */
  private volatile long storeEntryId;

  private volatile long storeQueueDeadline;

  /** Whether the limiter tracks this ticket as unstarted work that close() may reject. */
  volatile boolean tracked;

  /** The work whose future this thread was completing when it began this one's; see close. */
  private InFlight outerCompletion;

  TicketCore(
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
    // A plain store, as the int code's default was: a ticket reaches other threads only through
    // safe hand-overs (concurrent maps, monitors, executors), and a volatile store would cost a
    // fence per request.
    STATE.set(this, TicketState.PENDING);
    STORE_QUEUE_DEADLINE.set(this, PoolState.NEVER);
  }

  final TicketState state() {
    return state;
  }

  final LeaseRecord lease() {
    return lease;
  }

  final Admission admission() {
    return limiter.shared().admission(lease);
  }

  /** The reason the request was withdrawn, or {@code null}. */
  final WithdrawReason why() {
    return why;
  }

  final boolean cas(TicketState expected, TicketState next) {
    return STATE.compareAndSet(this, expected, next);
  }

  /** Sets the lease unless one was set first; true if this call set it. */
  final boolean takeLease(LeaseRecord granted) {
    return LEASE.compareAndSet(this, null, granted);
  }

  /** Records why the request is withdrawn, unless a reason was given first. */
  final void because(WithdrawReason reason) {
    WHY.compareAndSet(this, null, reason);
  }

  /** Counts the request out of its limiter; later calls do nothing. */
  @Override
  public final LimiterImpl owner() {
    return limiter;
  }

  @Override
  public final InFlight outerCompletion() {
    return outerCompletion;
  }

  @Override
  public final void outerCompletion(InFlight outer) {
    this.outerCompletion = outer;
  }

  @Override
  public final void end() {
    if (!borrowsCount) {
      if (END.compareAndSet(this, RUNNING, ENDED)) {
        limiter.lifecycle().ended();
      }
      return;
    }
    // The one compare-and-set of the common case: ended while its execution still runs, which
    // then counts out itself.
    if (!END.compareAndSet(this, RUNNING, ENDED) && END.compareAndSet(this, OWES_COUNT, ENDED)) {
      limiter.lifecycle().ended();
    }
  }

  /**
   * Makes this request an attempt that holds its execution's in-flight count rather than one of its
   * own: an attempt of a blocking call, which runs inside its execution and, once withdrawn, may
   * outlive it only until its store clean-up ends it. Call before the request is published.
   */
  final void borrowCount() {
    borrowsCount = true;
  }

  /**
   * Called by the execution whose count this request borrows, as the execution ends: true if the
   * request has not ended, and will count out for the execution when it does; false if it has
   * ended, and the execution counts out itself.
   */
  final boolean takeOverCount() {
    return END.compareAndSet(this, RUNNING, OWES_COUNT);
  }

  /** Marks a started request done; its lease is released by the caller. */
  final void done() {
    // A release store: DONE ends nothing another party waits on (no withdrawal can take a started
    // request), and the count-out that follows is a compare-and-set, which fences anyway.
    STATE.setRelease(this, TicketState.DONE);
  }

  /** Attaches the queue-timeout entry; cancels it at once if the request is already decided. */
  final void deadlineEntry(TimeSource.Timer entry) {
    this.deadline = entry;
    if (!state.waiting()) {
      entry.cancel();
    }
  }

  final void cancelDeadline() {
    TimeSource.Timer d = deadline;
    if (d != null) {
      d.cancel();
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
}
