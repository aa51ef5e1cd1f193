/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;

/**
 * The upper part of {@code sluice top}: a row of column names, then each pool's line followed by
 * its holders, offers, queue (in order) and paused requests, one row each. A request is named by
 * its label, or by its id when it has none. The state, weight and time columns have fixed widths
 * and close every row, so they stay on screen however long a label is: the label column takes what
 * is left (at most the longest label) and cuts a longer label with {@code …}. From {@value #WIDE}
 * columns the agent and the request id get columns of their own, from {@value #WIDER} the pid of a
 * tracked command.
 *
 * <p>Stateless and thread-safe; never blocks.
 */
final class TicketTable {
  /** The width from which the agent and request id columns are shown. */
  static final int WIDE = 100;

  /** The width from which the pid column is shown. */
  static final int WIDER = 120;

  static final int INDENT = 2;
  static final int GAP = 2;
  static final int STATE = 10;
  static final int TIME = 18;
  static final int AGENT_MAX = 16;
  static final int PID = 7;

  /** The widths of one layout; 0 hides a column. */
  private record Columns(int label, int agent, int id, int pid, int weight) {}

  private TicketTable() {}

  /** The table's rows, each at most {@code width} columns. */
  static List<Row> rows(
      List<PoolStatus> pools, int width, Instant now, ZoneId zone, TopStyles styles) {
    List<Row> rows = new ArrayList<>();
    if (pools.isEmpty()) {
      rows.add(
          Row.of(
              Cells.fit(
                  new AttributedStringBuilder()
                      .append("no pools yet: sluice pool set NAME --capacity N", styles.muted())
                      .toAttributedString(),
                  width)));
      return rows;
    }
    Columns c = columns(pools, width);
    rows.add(Row.of(Cells.fit(header(c, styles), width)));
    for (PoolStatus p : pools) {
      rows.add(Row.of(Cells.fit(PoolLine.of(p, styles), width)));
      for (List<Ticket> group : List.of(p.holders(), p.offers(), p.queued(), p.paused())) {
        for (Ticket t : group) {
          TicketStatus s = TicketStatus.of(t, now, zone);
          rows.add(new Row(Cells.fit(line(t, s, c, styles), width), s.changesAt()));
        }
      }
    }
    return rows;
  }

  /** What names a request: its label, else its id (or {@code -} when the id has its column). */
  static String name(Ticket t, boolean idShown) {
    if (!t.label().isEmpty()) {
      return Cells.clean(t.label());
    }
    return idShown ? "-" : t.requestId();
  }

  private static Columns columns(List<PoolStatus> pools, int width) {
    int longestName = "LABEL".length();
    int longestAgent = "AGENT".length();
    int longestId = "ID".length();
    int heaviest = 0;
    for (PoolStatus p : pools) {
      for (List<Ticket> group : List.of(p.holders(), p.offers(), p.queued(), p.paused())) {
        for (Ticket t : group) {
          longestName = Math.max(longestName, Cells.width(name(t, width >= WIDE)));
          longestAgent = Math.max(longestAgent, Cells.width(Cells.clean(t.agentId())));
          longestId = Math.max(longestId, t.requestId().length());
          heaviest = Math.max(heaviest, t.weight());
        }
      }
    }
    int weight = Math.max(1, Integer.toString(heaviest).length());
    int agent = width >= WIDE ? Math.min(longestAgent, AGENT_MAX) : 0;
    int id = width >= WIDE ? longestId : 0;
    int pid = width >= WIDER ? PID : 0;
    int fixed = INDENT + GAP + STATE + 1 + weight + GAP + TIME;
    fixed += (agent > 0 ? agent + GAP : 0) + (id > 0 ? id + GAP : 0) + (pid > 0 ? pid + GAP : 0);
    int label = Math.max(1, Math.min(longestName, width - fixed));
    return new Columns(label, agent, id, pid, weight);
  }

  private static AttributedString header(Columns c, TopStyles styles) {
    StringBuilder b = new StringBuilder(" ".repeat(INDENT)).append(Cells.left("LABEL", c.label()));
    if (c.agent() > 0) {
      b.append(gap()).append(Cells.left("AGENT", c.agent()));
    }
    if (c.id() > 0) {
      b.append(gap()).append(Cells.left("ID", c.id()));
    }
    if (c.pid() > 0) {
      b.append(gap()).append(Cells.right("PID", c.pid()));
    }
    b.append(gap()).append(Cells.left("STATE", STATE));
    b.append(' ').append(Cells.right("W", c.weight()));
    b.append(gap()).append("TIME");
    return new AttributedStringBuilder().append(b, styles.muted()).toAttributedString();
  }

  private static AttributedString line(Ticket t, TicketStatus s, Columns c, TopStyles styles) {
    AttributedStringBuilder b = new AttributedStringBuilder();
    b.append(" ".repeat(INDENT)).append(Cells.left(name(t, c.id() > 0), c.label()));
    if (c.agent() > 0) {
      b.append(gap()).append(Cells.left(Cells.clean(t.agentId()), c.agent()));
    }
    if (c.id() > 0) {
      b.append(gap()).append(Cells.left(t.requestId(), c.id()));
    }
    if (c.pid() > 0) {
      String pid = t.trackedProcess().map(p -> Long.toString(p.pid())).orElse("-");
      b.append(gap()).append(Cells.right(pid, c.pid()));
    }
    b.append(gap()).append(Cells.left(s.state(), STATE), styles.of(s.tone()));
    b.append(' ').append(Cells.right(Integer.toString(t.weight()), c.weight()));
    b.append(gap()).append(Cells.fit(s.time(), TIME), styles.of(s.timeTone()));
    return b.toAttributedString();
  }

  private static String gap() {
    return " ".repeat(GAP);
  }
}
