/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.JobEnd;
import dev.sluice.gate.JobOutcome;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Settles a submitted job whose request ended without its runner saying how the job ended: the
 * request's end says why the command never ran, and a command that ran under a runner that is gone
 * has lost its exit status. Pure: the caller supplies whether the runner is proven dead.
 *
 * <p>Stateless and thread-safe.
 */
public final class JobSettle {
  /** Why a {@code sluice run} or job runner that gave up waiting withdrew its request. */
  public static final String QUEUE_TIMEOUT = "queue_timeout";

  private JobSettle() {}

  /**
   * How a job ended whose request is no longer live, if that can be told yet.
   *
   * @param ticket its request, ended, or empty if the gate no longer keeps it
   * @param started whether its command was ever started (bound to its process group)
   * @param runnerDead whether its runner is proven dead; asked only for a started job
   * @return the end, or empty while a live runner may still report the command's status (its permit
   *     was force-released while the command runs on)
   */
  public static Optional<JobEnd> settle(
      Optional<Ticket> ticket, boolean started, BooleanSupplier runnerDead) {
    if (ticket.isPresent() && ticket.get().state().isLive()) {
      throw new IllegalArgumentException("request " + ticket.get().requestId() + " is live");
    }
    String why = ticket.map(Ticket::endReason).orElse("");
    if (started) {
      if (!runnerDead.getAsBoolean()) {
        return Optional.empty();
      }
      return Optional.of(
          JobEnd.without(
              JobOutcome.LOST,
              "its runner ended before the command did, so its exit status is unknown"
                  + (why.isEmpty() ? "" : "; the slot ended " + why)));
    }
    if (ticket.isEmpty()) {
      return Optional.of(
          JobEnd.without(JobOutcome.NOT_STARTED, "its request ended before the command started"));
    }
    Ticket t = ticket.get();
    if (t.state() == TicketState.CANCELLED && why.equals(QUEUE_TIMEOUT)) {
      return Optional.of(JobEnd.without(JobOutcome.QUEUE_TIMEOUT, why));
    }
    if (t.state() == TicketState.CANCELLED && why.startsWith(Moves.CANCELLED_BY)) {
      return Optional.of(JobEnd.without(JobOutcome.CANCELLED, why));
    }
    if (why.equals(Permits.OWNER_EXITED)) {
      return Optional.of(
          JobEnd.without(
              JobOutcome.NOT_STARTED,
              "its runner ended before it started the command (" + Permits.OWNER_EXITED + ")"));
    }
    return Optional.of(JobEnd.without(JobOutcome.NOT_STARTED, why.isEmpty() ? "ended" : why));
  }
}
