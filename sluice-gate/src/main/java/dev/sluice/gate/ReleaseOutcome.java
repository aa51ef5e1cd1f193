/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * The answer to {@code release}, which is idempotent.
 *
 * @param ticket the request, terminal
 * @param alreadyReleased whether the permit had ended before this call
 * @param reason why the permit ended (for a repeated call: the original reason)
 */
public record ReleaseOutcome(Ticket ticket, boolean alreadyReleased, String reason) {
  /**
   * How the permit was lost before this call, if the gate took it back (its lease lapsed, its start
   * deadline passed, an operator force-released it, its owner died): the caller's work ran, or
   * still runs, outside the pool. Empty when this call released it or its holder did earlier.
   */
  public java.util.Optional<PermitLoss> loss() {
    return alreadyReleased ? PermitLoss.of(reason) : java.util.Optional.empty();
  }
}
