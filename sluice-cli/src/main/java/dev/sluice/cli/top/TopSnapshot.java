/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.cli.Dashboard;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.time.Clock;
import java.util.List;

/**
 * What {@code sluice top} prints off a terminal: the live view's parts once, as plain text, with
 * nothing cut (the title with when the gate was read, the pools and their requests by label, the
 * latest events in local time). Stateless and thread-safe; blocks for a few gate transactions.
 */
public final class TopSnapshot {
  private TopSnapshot() {}

  /**
   * Reads the gate and lays it out.
   *
   * @param gate the gate to show
   * @param eventCount how many of the latest events to show
   * @param clock now, and the zone times are shown in
   */
  public static List<String> lines(GateService gate, int eventCount, Clock clock) {
    var events = Dashboard.latestEvents(gate, gate.lastEventSequence(), eventCount);
    List<PoolStatus> pools = gate.status();
    var state =
        new TopState(
            gate.home(), pools, new EventLabels(gate).label(events, pools), clock.instant());
    return TopFrame.snapshot(state, clock);
  }
}
