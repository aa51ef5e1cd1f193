/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.time.Instant;

/**
 * One entry of the gate's event feed. Sequence numbers increase by one per event across all pools
 * and are never reused, so a reader resumes with {@code events --since <last seq>}.
 *
 * @param sequence the event's number
 * @param at when it happened, in store time
 * @param type what happened, for example {@code offered}, {@code claimed}, {@code reclaimed}
 * @param pool the pool
 * @param requestId the request concerned, or an empty string for pool-wide events
 * @param agentId the request's agent, or the actor of a pool-wide event
 * @param detail a human-readable reason or value, possibly empty
 */
public record GateEvent(
    long sequence,
    Instant at,
    String type,
    String pool,
    String requestId,
    String agentId,
    String detail) {}
