/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * Where a gate request stands. A request is <em>live</em> while queued, offered, paused or held,
 * and <em>terminal</em> once released, cancelled or failed; terminal requests are kept for an hour
 * so that repeated calls get the same answer.
 */
public enum TicketState {
  /** Waiting in its pool's FIFO queue. */
  QUEUED,
  /**
   * At the head of the queue it fit: capacity is reserved until the offer expires or is claimed.
   */
  OFFERED,
  /** Its offer expired or was declined; out of the queue until its agent rejoins. */
  PAUSED,
  /** Holds a permit (claimed, or running tracked or untracked). */
  HELD,
  /** Its permit ended: released, reclaimed or force-released. */
  RELEASED,
  /** Withdrawn by its agent before it held a permit. */
  CANCELLED,
  /** Can never be admitted, for example heavier than its pool's new capacity. */
  FAILED;

  /** Whether the request is still queued, offered, paused or held. */
  public boolean isLive() {
    return this == QUEUED || this == OFFERED || this == PAUSED || this == HELD;
  }
}
