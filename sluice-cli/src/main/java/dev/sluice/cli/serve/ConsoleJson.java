/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.serve;

import dev.sluice.cli.GateJson;
import dev.sluice.cli.JsonObject;
import dev.sluice.cli.top.FeedEvent;
import dev.sluice.gate.PoolStatus;
import java.time.Instant;
import java.util.List;

/**
 * The console's JSON: the pools as {@code sluice --json status} prints them (holders, offers, queue
 * and paused requests as full tickets: labels, process ids, since when, deadlines), the events as
 * {@code sluice --json events} prints them plus each request's label, and {@code readAt}, the
 * server's clock when the pools were read, against which the page counts deadlines down.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
final class ConsoleJson {
  private ConsoleJson() {}

  /**
   * One view of the gate.
   *
   * @param pools every pool
   * @param events events, oldest first
   * @param readAt when the pools were read
   * @param reset whether {@code events} are all the page should show (else they follow the last)
   */
  static JsonObject snapshot(
      List<PoolStatus> pools, List<FeedEvent> events, Instant readAt, boolean reset) {
    JsonObject o = GateJson.object().put("readAt", readAt.toString()).put("reset", reset);
    o.set("pools", GateJson.array(pools, GateJson::pool));
    o.set("events", GateJson.array(events, ConsoleJson::event));
    return o;
  }

  /** One event with the label of its request (empty when it has none or is gone). */
  static JsonObject event(FeedEvent e) {
    return GateJson.event(e.event()).put("label", e.label());
  }
}
