/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.List;

/**
 * The answer to {@code heartbeat}.
 *
 * @param extended how many untracked leases were extended
 * @param lost the permits the heartbeat named (or, without tokens, the agent's newest permit) that
 *     the gate had already taken back; each one's {@link PermitLoss#of(Ticket)} says how
 */
public record HeartbeatOutcome(int extended, List<Ticket> lost) {
  /** Copies the list. */
  public HeartbeatOutcome {
    lost = List.copyOf(lost);
  }
}
