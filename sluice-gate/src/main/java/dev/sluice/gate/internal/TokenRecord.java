/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate.internal;

/**
 * What a token hash names: a request, the kind of token and the round it was minted in.
 *
 * @param requestId the request
 * @param kind offer or permit
 * @param round the request's round when the token was minted
 */
record TokenRecord(String requestId, Kind kind, int round) {
  /** Offer tokens claim or decline an offer; permit tokens start, heartbeat and release. */
  enum Kind {
    OFFER,
    PERMIT
  }
}
