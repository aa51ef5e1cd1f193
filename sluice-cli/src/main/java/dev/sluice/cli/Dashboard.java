/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PoolStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Renders what {@code sluice top} shows: a header, every pool with its holders, offers, queue and
 * paused requests, and the latest events. The same lines serve the plain snapshot (off a terminal)
 * and each frame of the live view. Stateless and thread-safe; never blocks.
 */
public final class Dashboard {
  private Dashboard() {}

  /**
   * The dashboard's lines.
   *
   * @param home the gate's home, for the header
   * @param pools every pool
   * @param recent the latest events, oldest first
   * @param now the time the durations are measured to
   */
  public static List<String> render(
      Path home, List<PoolStatus> pools, Collection<GateEvent> recent, Instant now) {
    List<String> lines = new ArrayList<>();
    lines.add("sluice top  " + home + "  " + now.truncatedTo(ChronoUnit.SECONDS));
    lines.add("");
    lines.addAll(GateText.status(pools, now));
    lines.add("");
    lines.add("events" + (recent.isEmpty() ? ": none yet" : ":"));
    recent.forEach(e -> lines.add(GateText.event(e)));
    return lines;
  }
}
