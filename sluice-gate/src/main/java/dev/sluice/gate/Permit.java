/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

/**
 * A held permit and its token, as {@code claim} returns it.
 *
 * @param ticket the request, {@link TicketState#HELD}
 * @param permitToken the permit's token
 */
public record Permit(Ticket ticket, String permitToken) {}
