/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;

/**
 * The event feed's rows: local time, what happened (coloured by what it means for the request), the
 * pool, the request's label (its id when it has none), and the detail with its instants in local
 * time. Time, type and pool have fixed widths, set by the events shown; the label takes at most
 * half of what is left, the detail the rest, cut with {@code …} at the screen's edge. From {@value
 * TicketTable#WIDE} columns the request id has a column of its own.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
final class FeedRows {
  /**
   * The type column is at least as wide as the common types ({@code offer_expired}), so that it
   * does not jump when one appears, and at most as wide as the longest ({@code capacity_changed}).
   */
  static final int TYPE_MIN = 13;

  static final int TYPE_MAX = 16;
  static final int POOL_MAX = 12;
  static final int SUBJECT_MIN = 12;
  private static final int GAP = 2;

  private FeedRows() {}

  /** One row per event, in the order given, each at most {@code width} columns. */
  static List<AttributedString> rows(
      List<FeedEvent> events, int width, ZoneId zone, TopStyles styles) {
    int type = 0;
    int pool = 0;
    int id = 0;
    int subject = 0;
    boolean wide = width >= TicketTable.WIDE;
    for (FeedEvent e : events) {
      type = Math.max(type, e.event().type().length());
      pool = Math.max(pool, Cells.width(Cells.clean(e.event().pool())));
      id = Math.max(id, e.event().requestId().length());
      subject = Math.max(subject, Cells.width(e.subject(wide)));
    }
    type = Math.max(TYPE_MIN, Math.min(type, TYPE_MAX));
    pool = Math.min(pool, POOL_MAX);
    id = wide ? Math.max(id, 1) : 0;
    int rest = width - ("HH:mm:ss".length() + GAP + type + GAP + pool + GAP);
    rest -= id > 0 ? id + GAP : 0;
    int subjectWidth = Math.min(subject, Math.max(Math.min(rest, SUBJECT_MIN), rest / 2));
    Columns c = new Columns(type, pool, id, Math.max(0, subjectWidth));
    return events.stream().map(e -> Cells.fit(row(e, c, zone, styles), width)).toList();
  }

  private record Columns(int type, int pool, int id, int subject) {}

  private static AttributedString row(FeedEvent fe, Columns c, ZoneId zone, TopStyles styles) {
    var e = fe.event();
    AttributedStringBuilder b = new AttributedStringBuilder();
    b.append(TimeText.clock(e.at(), zone)).append(gap());
    b.append(Cells.left(e.type(), c.type()), styles.of(tone(e.type()))).append(gap());
    b.append(Cells.left(Cells.clean(e.pool()), c.pool())).append(gap());
    if (c.id() > 0) {
      b.append(Cells.left(e.requestId().isEmpty() ? "-" : e.requestId(), c.id())).append(gap());
    }
    b.append(Cells.left(fe.subject(c.id() > 0), c.subject()));
    String detail = Cells.clean(TimeText.localInstants(e.detail(), zone));
    if (!detail.isEmpty()) {
      b.append(gap()).append(detail);
    }
    return trimEnd(b.toAttributedString());
  }

  /** What an event type means for its request. */
  static Tone tone(String type) {
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "granted", "claimed", "started", "marked_started" -> Tone.ACTIVE;
      case "offered", "offer_expired" -> Tone.OFFERED;
      case "queued", "rejoined" -> Tone.WAITING;
      case "declined", "cancelled", "withdrawn" -> Tone.IDLE;
      case "reclaimed", "force_released", "signalled", "failed", "launcher_gone", "lost" ->
          Tone.ALERT;
      default -> Tone.PLAIN;
    };
  }

  /** Without the padding of an empty last column. */
  private static AttributedString trimEnd(AttributedString s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return end == s.length() ? s : s.subSequence(0, end);
  }

  private static String gap() {
    return " ".repeat(GAP);
  }
}
