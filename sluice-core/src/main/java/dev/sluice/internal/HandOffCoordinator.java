/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.BackendFailureException;
import dev.sluice.spi.LeaseRecord;
import java.util.List;
import java.util.function.Consumer;

/**
 * Connects the {@link HandOffs} bookkeeping to the pool: holds requests in this JVM, sends the next
 * held one whenever this JVM has none waiting at the pool, and passes released units on while the
 * pool is healthy. With hand-offs off every call here does nothing.
 *
 * <p>Thread-safe.
 */
final class HandOffCoordinator {
  private final HandOffs handOffs;
  private final CommandRunner runner;
  private final Consumer<Ticket> send;
  private final Consumer<Ticket> withdrawPassed;
  private final ThreadLocal<Boolean> sendingHeld = new ThreadLocal<>();

  /**
   * @param send sends a held request's acquire to the store
   * @param withdrawPassed takes a request that was passed a unit out of the store's queue
   */
  HandOffCoordinator(
      HandOffs handOffs,
      CommandRunner runner,
      Consumer<Ticket> send,
      Consumer<Ticket> withdrawPassed) {
    this.handOffs = handOffs;
    this.runner = runner;
    this.send = send;
    this.withdrawPassed = withdrawPassed;
  }

  /** Whether released units may be passed to this JVM's waiting requests. */
  boolean enabled() {
    return handOffs.enabled();
  }

  /**
   * Holds a new request in this JVM until a pass or its turn to wait at the pool.
   *
   * @return true if it is held (or gone); false if the caller must send it now
   */
  boolean hold(Ticket t) {
    if (!handOffs.enabled() || !handOffs.hold(t)) {
      return false;
    }
    BackendFailureException f = runner.failure();
    if (f != null) {
      // The store failed while it was being held: the failure may have missed it.
      t.fail(f);
    }
    return true;
  }

  /**
   * Sends this JVM's next held request while it has none waiting at the pool. Not re-entered on one
   * thread: a store that answers on the sending thread would otherwise nest one call per request
   * admitted at once; the outer loop asks again after each send instead.
   */
  void sendHeld() {
    if (!handOffs.enabled() || runner.stopped() || sendingHeld.get() != null) {
      return;
    }
    sendingHeld.set(Boolean.TRUE);
    try {
      Ticket t;
      while ((t = handOffs.nextToSend()) != null) {
        send.accept(t);
      }
    } finally {
      sendingHeld.remove();
    }
  }

  /** Passes a released unit to a request of this JVM; false if it goes back to the pool. */
  boolean passed(LeaseRecord lease) {
    if (!handOffs.enabled()) {
      return false;
    }
    // An attempt's unit goes back to the pool: passed on, the store would take other work for the
    // attempt, and that work would leave no record if this owner died.
    if (!lease.attempt() && !runner.stopped() && handOffs.pass(lease, withdrawPassed)) {
      // The request that took the unit may have been the one this JVM had at the pool.
      sendHeld();
      return true;
    }
    handOffs.returned(lease.id());
    return false;
  }

  /** Forgets a unit that goes back to the pool without being passed. */
  void givenBack(LeaseRecord lease) {
    if (handOffs.enabled()) {
      handOffs.returned(lease.id());
    }
  }

  /** A request's acquire was answered "queued": from now on it may be passed a unit. */
  void queued(Ticket t) {
    // Never an attempt: its grant must come from the store, which counts it as the attempt's.
    if (t.operation.isEmpty()) {
      handOffs.sent(t);
    }
  }

  /** Forgets a request that was granted, dropped or withdrawn. */
  void left(long ref) {
    handOffs.left(ref);
  }

  /** The requests held here, for a store failure to withdraw. */
  List<Ticket> heldRequests() {
    return handOffs.heldRequests();
  }

  /** Forgets everything, when the owner retires. */
  void clear() {
    handOffs.clear();
  }
}
