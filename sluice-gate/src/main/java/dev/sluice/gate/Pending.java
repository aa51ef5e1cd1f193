/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.List;

/**
 * What one agent has at the gate, as {@code pending} shows it, with fresh tokens for its offers and
 * permits (so an agent that lost a reply can go on).
 *
 * @param offers offers waiting for a claim
 * @param queued requests in queues
 * @param paused paused requests
 * @param held held permits
 */
public record Pending(
    List<AcquireOutcome.Offered> offers,
    List<AcquireOutcome.Queued> queued,
    List<AcquireOutcome.Paused> paused,
    List<AcquireOutcome.Granted> held) {
  /** Copies the lists. */
  public Pending {
    offers = List.copyOf(offers);
    queued = List.copyOf(queued);
    paused = List.copyOf(paused);
    held = List.copyOf(held);
  }

  /** Whether the agent has nothing at the gate. */
  public boolean isEmpty() {
    return offers.isEmpty() && queued.isEmpty() && paused.isEmpty() && held.isEmpty();
  }
}
