/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

import dev.sluice.gate.PermitPhase;
import dev.sluice.gate.ProcessRef;
import dev.sluice.gate.TicketState;

/**
 * One request in the gate's state. Mutable, owned by its {@link GateState}; times are store
 * milliseconds, 0 where a deadline does not apply.
 */
final class Entry {
  final String id;
  final String pool;
  final String agentId;
  final String opKey;
  final String label;
  final String reason;
  final int weight;
  final long createdAt;

  TicketState state;
  PermitPhase phase;
  long since;
  long offerExpiresAt;
  long startDeadline;
  long leaseDeadline;
  ProcessRef process;
  String endReason = "";

  /**
   * The owner registration (see {@code dev.sluice.local.Owner}) of the process this entry depends
   * on, or empty: a {@code sluice run} waiting for it, or the launcher of its tracked process. When
   * that process is proven dead, {@link Permits#ownerGone} ends what only it could have finished.
   */
  String owner = "";

  /**
   * Bumped by every offer and every direct grant: a token minted in one round is stale in the next,
   * so a lapsed offer's token cannot claim a later one.
   */
  int round;

  /** Hashes of the tokens minted for this entry, oldest first; bounded, see {@link Moves}. */
  final java.util.ArrayDeque<String> tokenHashes = new java.util.ArrayDeque<>();

  Entry(
      String id,
      String pool,
      String agentId,
      String opKey,
      String label,
      String reason,
      int weight,
      long createdAt) {
    this.id = id;
    this.pool = pool;
    this.agentId = agentId;
    this.opKey = opKey;
    this.label = label;
    this.reason = reason;
    this.weight = weight;
    this.createdAt = createdAt;
    this.since = createdAt;
  }

  /** Capacity this entry takes from its pool now: held and offered entries take their weight. */
  int usedWeight() {
    return state == TicketState.HELD || state == TicketState.OFFERED ? weight : 0;
  }

  void enter(TicketState next, long now) {
    state = next;
    since = now;
    if (next != TicketState.OFFERED) {
      offerExpiresAt = 0;
    }
    if (next != TicketState.HELD) {
      phase = null;
      startDeadline = 0;
      leaseDeadline = 0;
    }
  }
}
