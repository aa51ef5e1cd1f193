/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;

/**
 * Lays out one frame of {@code sluice top}: a title bar; the pools with their requests ({@link
 * TicketTable}); then the event feed ({@link FeedRows}), newest at the bottom, filling every row
 * that is left. The frame is a pure function of the gate as read, the screen's size, the clock and
 * the styles the terminal supports: no line is wider than the screen and there are never more lines
 * than rows. When the pools do not fit, they keep their rows first, less {@value #EVENT_ROWS_KEPT}
 * for the newest events, and a row says how many were left out.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
final class TopFrame {
  /** Events that keep a row even when the pools would fill the screen. */
  static final int EVENT_ROWS_KEPT = 3;

  /** The least table rows worth keeping: the column names, a pool, a count of the rest. */
  private static final int TABLE_ROWS_KEPT = 3;

  /** The width a snapshot is laid out in: wide enough that nothing is cut. */
  private static final int SNAPSHOT_WIDTH = 10_000;

  private static final String KEYS = "q quits";

  /**
   * A laid-out frame.
   *
   * @param lines the rows, top first
   * @param redrawAt when a countdown shown next changes, or empty if only the gate changes it
   */
  record Frame(List<AttributedString> lines, Optional<Instant> redrawAt) {}

  private TopFrame() {}

  /**
   * The live view's frame.
   *
   * @param state the gate as read
   * @param clock now, and the zone times are shown in
   * @param width the screen's columns
   * @param height the screen's rows
   * @param styles colour or monochrome
   */
  static Frame render(TopState state, Clock clock, int width, int height, TopStyles styles) {
    if (height <= 0 || width <= 0) {
      return new Frame(List.of(), Optional.empty());
    }
    Instant now = clock.instant();
    List<Row> rows = new ArrayList<>();
    rows.add(Row.of(title(state, clock, width, styles, true)));
    List<Row> table = TicketTable.rows(state.pools(), width, now, clock.getZone(), styles);
    int room = height - 1;
    int feedNeeds = 1 + Math.min(state.events().size(), EVENT_ROWS_KEPT);
    int tableRows = table.size();
    int feedRows = room - tableRows;
    if (feedRows < feedNeeds) {
      // Too few rows for both: keep the newest events unless the table would keep none of its own.
      boolean feedFits = room - feedNeeds >= TABLE_ROWS_KEPT;
      feedRows = feedFits ? feedNeeds : 0;
      tableRows = room - feedRows;
    }
    rows.addAll(elide(table, Math.max(0, tableRows), styles));
    if (feedRows > 0) {
      rows.add(Row.of(feedHeading(state, styles)));
      List<FeedEvent> events = state.events();
      List<FeedEvent> newest =
          events.subList(events.size() - Math.min(events.size(), feedRows - 1), events.size());
      FeedRows.rows(newest, width, clock.getZone(), styles).forEach(l -> rows.add(Row.of(l)));
    }
    List<Row> shown = rows.subList(0, Math.min(rows.size(), height));
    List<AttributedString> lines = new ArrayList<>();
    shown.forEach(r -> lines.add(Cells.fit(r.line(), width)));
    Optional<Instant> redrawAt =
        shown.stream().map(Row::changesAt).flatMap(Optional::stream).min(Comparator.naturalOrder());
    return new Frame(lines, redrawAt);
  }

  /**
   * The plain snapshot {@code top} prints off a terminal: the same parts with nothing cut, every
   * event given, no colours.
   */
  static List<String> snapshot(TopState state, Clock clock) {
    Instant now = clock.instant();
    List<String> lines = new ArrayList<>();
    lines.add(title(state, clock, SNAPSHOT_WIDTH, TopStyles.MONOCHROME, false).toString());
    TicketTable.rows(state.pools(), SNAPSHOT_WIDTH, now, clock.getZone(), TopStyles.MONOCHROME)
        .forEach(r -> lines.add(r.line().toString()));
    lines.add(feedHeading(state, TopStyles.MONOCHROME).toString());
    FeedRows.rows(state.events(), SNAPSHOT_WIDTH, clock.getZone(), TopStyles.MONOCHROME)
        .forEach(l -> lines.add(l.toString()));
    lines.replaceAll(String::stripTrailing);
    return lines;
  }

  /**
   * {@code sluice top}, the home and when the gate was read on the left, the keys on the right; a
   * narrow screen cuts the home from its left, since its end says most.
   */
  private static AttributedString title(
      TopState state, Clock clock, int width, TopStyles styles, boolean live) {
    String lead = live ? " sluice top  " : "sluice top  ";
    String asOf = "  as of " + TimeText.clock(state.readAt(), clock.getZone());
    String keys = live ? KEYS + " " : "";
    int homeRoom = width - lead.length() - asOf.length() - keys.length() - 2;
    String home = Cells.clean(state.home().toString());
    if (Cells.width(home) > homeRoom) {
      home = homeRoom < 4 ? "" : Cells.ELLIPSIS + tail(home, homeRoom - 1);
    }
    String left = lead + home + asOf;
    int pad = Math.max(2, width - Cells.width(left) - keys.length());
    String bar = live ? left + " ".repeat(pad) + keys : left;
    return new AttributedStringBuilder().append(bar, styles.title()).toAttributedString();
  }

  /** The last {@code columns} columns of {@code text}. */
  private static String tail(String text, int columns) {
    int start = text.length();
    while (start > 0 && Cells.width(text.substring(start - 1)) <= columns) {
      start--;
    }
    return text.substring(start);
  }

  private static AttributedString feedHeading(TopState state, TopStyles styles) {
    String text = state.events().isEmpty() ? "events: none yet" : "events";
    return new AttributedStringBuilder().append(text, styles.heading()).toAttributedString();
  }

  /** The first {@code rows} rows; if some are left out, the last shown row says how many. */
  private static List<Row> elide(List<Row> all, int rows, TopStyles styles) {
    if (all.size() <= rows) {
      return all;
    }
    List<Row> shown = new ArrayList<>(all.subList(0, Math.max(0, rows - 1)));
    if (rows > 0) {
      int hidden = all.size() - shown.size();
      shown.add(
          Row.of(
              new AttributedStringBuilder()
                  .append("  … " + hidden + " more", styles.muted())
                  .toAttributedString()));
    }
    return shown;
  }
}
