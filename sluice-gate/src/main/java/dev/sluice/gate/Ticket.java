/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of one gate request: who asked, for what, and where it stands. Tokens are never part
 * of a snapshot; they are returned once, to the call that minted them.
 *
 * @param requestId the request's id, unique in the store and never reused
 * @param pool the pool
 * @param agentId the agent that asked
 * @param opKey the agent's key for the operation (acquire is idempotent per agent and key)
 * @param label a label shown to people, possibly empty
 * @param reason why the agent asked, possibly empty
 * @param weight the capacity units it takes
 * @param state where it stands
 * @param phase the permit's phase while {@link TicketState#HELD}, else {@code null}
 * @param position the 1-based place in the queue while {@link TicketState#QUEUED}, else 0
 * @param createdAt when it was first asked for
 * @param since when it entered its current state
 * @param offerExpiresAt when its offer lapses while {@link TicketState#OFFERED}, else {@code null}
 * @param startDeadline when an unstarted permit is reclaimed while {@link PermitPhase#CLAIMED}
 * @param leaseDeadline when an untracked permit lapses without a heartbeat
 * @param process the tracked process while {@link PermitPhase#RUNNING_TRACKED}
 * @param endReason why it ended once terminal, or why it was paused, else empty
 */
public record Ticket(
    String requestId,
    String pool,
    String agentId,
    String opKey,
    String label,
    String reason,
    int weight,
    TicketState state,
    PermitPhase phase,
    int position,
    Instant createdAt,
    Instant since,
    Instant offerExpiresAt,
    Instant startDeadline,
    Instant leaseDeadline,
    ProcessRef process,
    String endReason) {

  /** The tracked process, if any. */
  public Optional<ProcessRef> trackedProcess() {
    return Optional.ofNullable(process);
  }
}
