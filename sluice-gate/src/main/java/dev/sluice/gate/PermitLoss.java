/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.Locale;
import java.util.Optional;

/**
 * Why a permit ended without its holder releasing it: the gate took the slot back, so whoever still
 * works under that permit runs outside the pool and must stop. {@code start}, {@code mark-started},
 * {@code heartbeat} and {@code release} on such a permit answer with its loss.
 *
 * <p>Immutable and thread-safe.
 */
public enum PermitLoss {
  /** An untracked permit's lease ran out without a heartbeat. */
  LEASE_EXPIRED,
  /** A claimed permit was not started before its start deadline. */
  START_DEADLINE_PASSED,
  /** An operator released it with {@code force-release}. */
  FORCE_RELEASED,
  /** The process that held it (a {@code sluice run} or launcher) died before it started work. */
  OWNER_EXITED;

  /** The loss as scripts see it, for example {@code lease_expired}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The loss an end reason records, if it is one.
   *
   * @param endReason a {@link Ticket#endReason()}
   * @return the loss, or empty for an ordinary end (released, process exited) or a live request
   */
  public static Optional<PermitLoss> of(String endReason) {
    if (endReason == null) {
      return Optional.empty();
    }
    for (PermitLoss loss : values()) {
      if (endReason.equals(loss.wireName()) || endReason.startsWith(loss.wireName() + " ")) {
        return Optional.of(loss);
      }
    }
    return Optional.empty();
  }

  /** The loss of an ended permit, or empty if it is held or ended normally. */
  public static Optional<PermitLoss> of(Ticket ticket) {
    return ticket.state() == TicketState.RELEASED ? of(ticket.endReason()) : Optional.empty();
  }
}
