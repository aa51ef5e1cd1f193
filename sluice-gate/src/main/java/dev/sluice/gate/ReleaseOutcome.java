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
public record ReleaseOutcome(Ticket ticket, boolean alreadyReleased, String reason) {}
