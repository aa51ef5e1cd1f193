/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.PoolStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Renders what {@code sluice top} shows: a header, every pool with its holders, offers, queue and
 * paused requests, and the latest events, as the plain snapshot {@code top} prints off a terminal.
 * The live view ({@code dev.sluice.cli.top.TopFrame}) lays out the same lines, with colours, into
 * the terminal's size. Stateless and thread-safe; never blocks.
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
    lines.add(title(home, now));
    lines.add("");
    lines.addAll(GateText.status(pools, now));
    lines.add("");
    lines.add(eventsHeading(recent));
    recent.forEach(e -> lines.add(GateText.event(e)));
    return lines;
  }

  /**
   * The {@code count} events up to sequence {@code newest}, oldest first. Sequence numbers go up by
   * one per event and pruning takes the oldest, so these start right after {@code newest - count}:
   * no need to read the whole retained feed for its tail.
   */
  public static List<GateEvent> latestEvents(GateService gate, long newest, int count) {
    return count <= 0 ? List.of() : gate.events(Math.max(0, newest - count), count);
  }

  /** The first line: which home, and when. */
  public static String title(Path home, Instant now) {
    return "sluice top  " + home + "  " + now.truncatedTo(ChronoUnit.SECONDS);
  }

  /** The line above the event feed. */
  public static String eventsHeading(Collection<GateEvent> recent) {
    return "events" + (recent.isEmpty() ? ": none yet" : ":");
  }
}
