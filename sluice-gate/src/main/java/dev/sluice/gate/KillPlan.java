/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * What {@link GateService#kill} found and did: a job that was still waiting is cancelled at once; a
 * running one has its {@code killed} event recorded, and its process group is for the caller to
 * signal.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface KillPlan {
  /** The job as it stood when the plan was made. */
  Ticket ticket();

  /**
   * The job was queued, offered or paused (or already cancelled): it is now cancelled, exactly as
   * {@code cancel} does it, and whoever waits on it is told so.
   *
   * @param ticket the request, {@link TicketState#CANCELLED}
   */
  record Cancelled(Ticket ticket) implements KillPlan {}

  /**
   * The job runs: its process group, visible from this pid namespace, is to be signalled.
   *
   * @param ticket the request, {@link TicketState#HELD}
   * @param group the tracked process whose group gets the signal
   */
  record SignalGroup(Ticket ticket, ProcessRef group) implements KillPlan {}
}
