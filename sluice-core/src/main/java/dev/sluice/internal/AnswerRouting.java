/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.AccountingOverflowException;
import dev.sluice.LeaseExpiredException;
import dev.sluice.OwnerLostException;
import dev.sluice.QueueTimeoutException;
import dev.sluice.SluiceException;
import dev.sluice.spi.AcquireAnswer;
import dev.sluice.spi.EndedRequest;
import dev.sluice.spi.LeaseRecord;
import dev.sluice.spi.PoolCommand;
import dev.sluice.spi.PoolOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Routes what the store answers to this JVM's waiting requests: the answer to each request's own
 * acquire, and the grants and ends that any command's outcome reports for this owner (a release
 * that admits the next waiter, a tick that times one out, a sync that finds one granted). Each
 * outcome also re-arms the pool's timer.
 *
 * <p>A request is registered as waiting before its acquire leaves, so an outcome of another command
 * that grants or ends it, and is handled before the acquire's own answer, finds it.
 *
 * <p>Thread-safe.
 */
final class AnswerRouting {
  private final String name;
  private final Supplier<String> owner;
  private final WaitingRequests waiting = new WaitingRequests();
  private final HandOffCoordinator handOffs;
  private final PoolTimer timer;

  AnswerRouting(String name, Supplier<String> owner, HandOffCoordinator handOffs, PoolTimer timer) {
    this.name = name;
    this.owner = owner;
    this.handOffs = handOffs;
    this.timer = timer;
  }

  /** Registers a request whose acquire is about to leave. */
  void register(Ticket t) {
    waiting.add(t);
  }

  /** Forgets a request: answered, withdrawn, or holding a unit passed in this JVM. */
  void unregister(Ticket t) {
    waiting.remove(t);
  }

  /** Whether no request of this JVM waits for the store. */
  boolean idle() {
    return waiting.isEmpty();
  }

  /** Delivers the grants and ends an outcome reports for this owner, and re-arms the timer. */
  void handle(PoolOutcome<?> o) {
    String me = owner.get();
    boolean mine = false;
    for (LeaseRecord g : o.grants()) {
      if (g.owner().equals(me)) {
        mine = true;
        handOffs.left(g.ownerRef());
        // No ticket: it was withdrawn, and its withdraw command gives the grant back.
        Ticket t = waiting.take(g.ownerRef());
        if (t != null) {
          t.granted(g);
        }
      }
    }
    for (EndedRequest e : o.ended()) {
      if (e.owner().equals(me)) {
        mine = true;
        handOffs.left(e.ownerRef());
        Ticket t = waiting.take(e.ownerRef());
        if (t != null) {
          t.dropped(endException(e, t));
        }
      }
    }
    timer.rearm(o.nextDeadline(), o.sequence());
    if (mine) {
      handOffs.sendHeld();
    }
  }

  /** Delivers the store's answer to a request's own acquire. */
  void deliver(Ticket t, AcquireAnswer r) {
    if (!(r instanceof AcquireAnswer.Queued)) {
      handOffs.left(t.ref);
    }
    if (r instanceof AcquireAnswer.Granted g) {
      t.acquiredNow(g.lease());
    } else if (r instanceof AcquireAnswer.Queued) {
      t.queued();
    } else if (r instanceof AcquireAnswer.Overflow o) {
      t.dropped(
          new AccountingOverflowException(
              "pool '"
                  + name
                  + "' holds weight "
                  + o.activeWeight()
                  + "; adding weight "
                  + o.weight()
                  + " would overflow a long"));
      t.refused();
    } else {
      t.refused();
    }
  }

  private SluiceException endException(EndedRequest e, Ticket t) {
    switch (e.reason()) {
      case TIMED_OUT:
        return new QueueTimeoutException(name, Duration.ofMillis(t.queueWaitMillis));
      case LEASE_LOST:
        return new LeaseExpiredException(name, e.entryId(), t.weight);
      default:
        // Reclaimed: the store declared this JVM's owner dead while it lived.
        return new OwnerLostException(name, e.owner());
    }
  }

  /** Every request whose queue entry this JVM knows, for a sync to ask what became of it. */
  List<PoolCommand.Sync.Pending> queuedRequests() {
    List<PoolCommand.Sync.Pending> pending = new ArrayList<>();
    for (Ticket t : waiting.snapshot()) {
      if (t.storeEntryId() != 0) {
        pending.add(new PoolCommand.Sync.Pending(t.ref, t.storeEntryId(), t.storeQueueDeadline()));
      }
    }
    return pending;
  }

  /** Fails every waiting request, at the pool and held in this JVM, after a store failure. */
  void failWaiting(SluiceException f) {
    for (Ticket t : waiting.snapshot()) {
      t.fail(f);
    }
    for (Ticket t : handOffs.heldRequests()) {
      t.fail(f);
    }
  }
}
