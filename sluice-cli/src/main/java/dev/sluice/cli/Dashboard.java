/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import java.util.List;

/**
 * Reads what {@code sluice top} shows besides the pools: the latest events, for its JSON answer,
 * its plain snapshot and its live view ({@code dev.sluice.cli.top}), which lays them out. Stateless
 * and thread-safe; blocks for one gate read.
 */
public final class Dashboard {
  private Dashboard() {}

  /**
   * The {@code count} events up to sequence {@code newest}, oldest first. Sequence numbers go up by
   * one per event and pruning takes the oldest, so these start right after {@code newest - count}:
   * no need to read the whole retained feed for its tail.
   */
  public static List<GateEvent> latestEvents(GateService gate, long newest, int count) {
    return count <= 0 ? List.of() : gate.events(Math.max(0, newest - count), count);
  }
}
