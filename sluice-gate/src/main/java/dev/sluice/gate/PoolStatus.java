/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.util.List;

/**
 * One pool as {@code status} shows it. {@code used} may exceed {@code capacity} after a capacity
 * decrease: holders always finish.
 *
 * @param name the pool
 * @param capacity its capacity in weight units
 * @param used the weight held or offered
 * @param queued waiting requests in FIFO order
 * @param holders held permits, oldest first
 * @param offers outstanding offers
 * @param paused paused requests
 */
public record PoolStatus(
    String name,
    int capacity,
    int used,
    List<Ticket> queued,
    List<Ticket> holders,
    List<Ticket> offers,
    List<Ticket> paused) {
  /** Copies the lists. */
  public PoolStatus {
    queued = List.copyOf(queued);
    holders = List.copyOf(holders);
    offers = List.copyOf(offers);
    paused = List.copyOf(paused);
  }
}
