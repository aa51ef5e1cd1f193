/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.internal;

import dev.sluice.Admission;
import dev.sluice.Lease;
import dev.sluice.LimiterEvent;
import java.util.concurrent.atomic.AtomicBoolean;

/** A lease held by the calling thread; closing it releases exactly once. */
final class HeldLease implements Lease {
  private final BlockingTicket ticket;
  private final AtomicBoolean closed = new AtomicBoolean();
  private Admission admission;

  HeldLease(BlockingTicket ticket) {
    this.ticket = ticket;
  }

  @Override
  public synchronized Admission admission() {
    if (admission == null) {
      admission = ticket.admission();
    }
    return admission;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    ticket.done();
    try {
      ticket.limiter.shared().release(ticket);
      ticket.limiter.events().send(LimiterEvent.Kind.RELEASED, ticket);
    } finally {
      ticket.end();
    }
  }

  @Override
  public String toString() {
    return "Lease{id=" + ticket.lease().id() + ", weight=" + ticket.weight + "}";
  }
}
