/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.GateEvent;

/**
 * One event of {@code sluice top}'s feed with the label of the request it concerns.
 *
 * @param event the event
 * @param label the request's label; empty when it has none, when the event concerns a whole pool,
 *     or when the request is no longer kept
 */
public record FeedEvent(GateEvent event, String label) {
  /** What the feed names: the request's label, else its id; for a pool-wide event, its actor. */
  String subject() {
    return subject(false);
  }

  /**
   * What the feed names next to a column of request ids when {@code idShown}: the label, or {@code
   * -} rather than the id again; for a pool-wide event, its actor.
   */
  String subject(boolean idShown) {
    if (!label.isEmpty()) {
      return Cells.clean(label);
    }
    if (event.requestId().isEmpty()) {
      return Cells.clean(event.agentId());
    }
    return idShown ? "-" : event.requestId();
  }
}
