/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.cli.Dashboard;
import dev.sluice.cli.GateText;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Lays out one frame of {@code sluice top}'s live view in a screen of a given size: a title bar,
 * every pool with its holders, offers, queue and paused requests (coloured by state, see {@link
 * TopStyles}), then the newest events. The text of each line is the plain snapshot's ({@link
 * Dashboard}, {@link GateText}); only the layout differs. No line is wider than the screen (a cut
 * line ends in {@code …}) and there are never more lines than rows: when everything does not fit,
 * the pools keep their rows first, less a few for the newest events, and a faint row says how many
 * pool rows were left out.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
public final class TopFrame {
  /** Events that keep a row even when the pools would fill the screen. */
  static final int EVENT_ROWS_KEPT = 3;

  private TopFrame() {}

  /**
   * The frame's lines, at most {@code height}, each at most {@code width} columns.
   *
   * @param home the gate's home, for the title
   * @param pools every pool
   * @param recent the latest events, oldest first
   * @param now the time the title and the durations are measured to
   * @param width the screen's columns
   * @param height the screen's rows
   */
  public static List<AttributedString> render(
      Path home,
      List<PoolStatus> pools,
      List<GateEvent> recent,
      Instant now,
      int width,
      int height) {
    List<AttributedString> lines = new ArrayList<>();
    if (height <= 0) {
      return lines;
    }
    lines.add(titleBar(Dashboard.title(home, now) + "  (q quits)", width));
    List<AttributedString> status = status(pools, now);
    List<AttributedString> events = new ArrayList<>();
    recent.forEach(e -> events.add(new AttributedString(GateText.event(e), TopStyles.PLAIN)));

    // Below the title: a blank row, the pools, a blank row, the events heading, the events.
    int room = height - 1;
    int statusRows = status.size();
    int eventRows = events.size();
    boolean eventsShown = true;
    if (1 + status.size() + 2 + events.size() > room) {
      int kept = Math.min(events.size(), EVENT_ROWS_KEPT);
      statusRows = Math.min(status.size(), room - 1 - 2 - kept);
      if (statusRows < 1) {
        // Too few rows for both: the pools matter more than the history of how they got there.
        eventsShown = false;
        statusRows = Math.min(status.size(), room - 1);
      }
      eventRows = eventsShown ? room - 1 - statusRows - 2 : 0;
    }
    if (room >= 1) {
      lines.add(AttributedString.EMPTY);
    }
    lines.addAll(elide(status, Math.max(0, statusRows)));
    if (eventsShown) {
      lines.add(AttributedString.EMPTY);
      lines.add(new AttributedString(Dashboard.eventsHeading(recent), TopStyles.HEADING));
      // The newest events are the ones worth a row.
      lines.addAll(
          events.subList(events.size() - Math.min(eventRows, events.size()), events.size()));
    }
    lines.replaceAll(line -> fit(line, width));
    return lines;
  }

  private static List<AttributedString> status(List<PoolStatus> pools, Instant now) {
    List<AttributedString> rows = new ArrayList<>();
    if (pools.isEmpty()) {
      rows.add(new AttributedString(GateText.status(pools, now).get(0), TopStyles.PLAIN));
    }
    for (PoolStatus p : pools) {
      rows.add(new AttributedString(GateText.poolLine(p), TopStyles.HEADING));
      for (List<Ticket> group : List.of(p.holders(), p.offers(), p.queued(), p.paused())) {
        for (Ticket t : group) {
          rows.add(new AttributedString("  " + GateText.ticket(t, now), TopStyles.of(t.state())));
        }
      }
    }
    return rows;
  }

  /** The first {@code rows} rows; if some are left out, the last shown row says how many. */
  private static List<AttributedString> elide(List<AttributedString> all, int rows) {
    if (all.size() <= rows) {
      return all;
    }
    List<AttributedString> shown = new ArrayList<>(all.subList(0, Math.max(0, rows - 1)));
    if (rows > 0) {
      int hidden = all.size() - shown.size();
      shown.add(new AttributedString("  … " + hidden + " more", TopStyles.ELIDED));
    }
    return shown;
  }

  /** The title padded to the full width, so its reversed colours make a bar. */
  private static AttributedString titleBar(String title, int width) {
    StringBuilder b = new StringBuilder(title);
    while (b.length() < width) {
      b.append(' ');
    }
    return new AttributedString(b, TopStyles.TITLE);
  }

  /** The line cut to {@code width} columns, its last column a {@code …} if anything was cut. */
  static AttributedString fit(AttributedString line, int width) {
    if (line.columnLength() <= width) {
      return line;
    }
    if (width <= 0) {
      return AttributedString.EMPTY;
    }
    AttributedString head = line.columnSubSequence(0, width - 1);
    AttributedStyle style = head.length() > 0 ? head.styleAt(head.length() - 1) : line.styleAt(0);
    return new AttributedStringBuilder().append(head).append("…", style).toAttributedString();
  }
}
