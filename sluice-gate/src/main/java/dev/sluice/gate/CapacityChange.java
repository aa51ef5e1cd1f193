/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.time.Instant;

/**
 * One change of a pool's capacity, kept as its history.
 *
 * @param at when, in store time
 * @param pool the pool
 * @param actor who changed it
 * @param oldCapacity the capacity before, 0 for a pool this change created
 * @param newCapacity the capacity after
 * @param reason why, as given by the actor, possibly empty
 */
public record CapacityChange(
    Instant at, String pool, String actor, int oldCapacity, int newCapacity, String reason) {}
