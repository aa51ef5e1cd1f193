/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Dashboard;
import dev.sluice.cli.GateText;
import dev.sluice.gate.AcquireOutcome;
import dev.sluice.gate.AcquireRequest;
import dev.sluice.gate.GateEvent;
import dev.sluice.gate.GateService;
import dev.sluice.gate.GateSettings;
import dev.sluice.gate.PoolStatus;
import dev.sluice.gate.Ticket;
import dev.sluice.gate.TicketState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One frame of the live view, laid out from a real gate home that has a request in each live state:
 * held, offered, queued and paused.
 */
class TopFrameTest {
  static final AttributedStyle GREEN = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
  static final AttributedStyle YELLOW = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
  static final AttributedStyle CYAN = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
  static final AttributedStyle MAGENTA =
      AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA);

  @TempDir Path tmp;
  GateService gate;
  List<PoolStatus> pools;
  List<GateEvent> events;
  Instant now;

  @BeforeEach
  void aPoolWithEveryLiveState() {
    gate = GateService.open(tmp.resolve("home"), GateSettings.builder().defaultCapacity(2).build());
    gate.setCapacity("build", 2, "test", "");
    assertThat(gate.acquire(request("holder", 1))).isInstanceOf(AcquireOutcome.Granted.class);
    AcquireOutcome leaver = gate.acquire(request("leaver", 1));
    gate.acquire(request("decliner", 1));
    gate.acquire(request("next", 1));
    gate.acquire(request("waiter", 2));
    // The leaver's unit is offered to the decliner, who passes it on to the next in line and is
    // paused; the waiter needs two units and keeps waiting.
    gate.release(((AcquireOutcome.Granted) leaver).permitToken(), "done");
    gate.decline(((AcquireOutcome.Offered) gate.pending("decliner").offers().get(0)).offerToken());
    pools = gate.status();
    events = gate.events(0, 100);
    now = Instant.now();
    assertThat(pools).singleElement();
    PoolStatus p = pools.get(0);
    assertThat(p.holders()).extracting(Ticket::agentId).containsExactly("holder");
    assertThat(p.offers()).extracting(Ticket::agentId).containsExactly("next");
    assertThat(p.queued()).extracting(Ticket::agentId).containsExactly("waiter");
    assertThat(p.paused()).extracting(Ticket::agentId).containsExactly("decliner");
  }

  @AfterEach
  void close() {
    gate.close();
  }

  static AcquireRequest request(String agent, int weight) {
    return new AcquireRequest(agent, "op", "build", weight, "label of " + agent, "");
  }

  List<AttributedString> render(int width, int height) {
    return TopFrame.render(gate.home(), pools, events, now, width, height);
  }

  static AttributedString lineOf(List<AttributedString> frame, String agent) {
    return frame.stream()
        .filter(l -> l.toString().contains("agent " + agent + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line for " + agent + " in " + frame));
  }

  @Test
  void aFrameWithRoomShowsThePlainSnapshotsLinesColouredByState() {
    List<AttributedString> frame = render(400, 60);

    List<String> plain = Dashboard.render(gate.home(), pools, events, now);
    assertThat(frame).hasSameSizeAs(plain);
    assertThat(frame.get(0).toString().strip()).isEqualTo(plain.get(0) + "  (q quits)");
    assertThat(frame.subList(1, frame.size()))
        .extracting(AttributedString::toString)
        .containsExactlyElementsOf(plain.subList(1, plain.size()));

    assertThat(frame.get(0).styleAt(0)).isEqualTo(AttributedStyle.INVERSE);
    assertThat(frame.get(0).columnLength()).as("the title bar spans the width").isEqualTo(400);
    AttributedString poolLine = frame.get(2);
    assertThat(poolLine.toString()).startsWith("pool build");
    assertThat(poolLine.styleAt(0)).isEqualTo(AttributedStyle.BOLD);
    assertWholeLine(lineOf(frame, "holder"), "held", GREEN);
    assertWholeLine(lineOf(frame, "next"), "offered", YELLOW);
    assertWholeLine(lineOf(frame, "waiter"), "queued", CYAN);
    assertWholeLine(lineOf(frame, "decliner"), "paused", MAGENTA);
    assertThat(frame.get(frame.size() - 1).toString())
        .isEqualTo(GateText.event(events.get(events.size() - 1)));
    assertThat(frame.get(frame.size() - 1).styleAt(0)).isEqualTo(AttributedStyle.DEFAULT);
  }

  static void assertWholeLine(AttributedString line, String state, AttributedStyle style) {
    assertThat(line.toString()).startsWith("  " + state + " ");
    for (int i = 0; i < line.length(); i++) {
      assertThat(line.styleAt(i)).as("style of column %d of %s", i, line).isEqualTo(style);
    }
  }

  @Test
  void linesWiderThanTheScreenAreCutWithAnEllipsisInTheirOwnColour() {
    int width = 40;
    List<AttributedString> wide = render(400, 60);
    List<AttributedString> frame = render(width, 60);

    assertThat(frame)
        .hasSameSizeAs(wide)
        .allSatisfy(l -> assertThat(l.columnLength()).isLessThanOrEqualTo(width));
    for (int i = 0; i < frame.size(); i++) {
      String full = wide.get(i).toString();
      String cut = frame.get(i).toString();
      if (full.length() <= width) {
        assertThat(cut).isEqualTo(full);
      } else {
        assertThat(cut).hasSize(width).endsWith("…").startsWith(full.substring(0, width - 1));
      }
    }
    AttributedString held = frame.get(3);
    assertThat(held.toString()).startsWith("  held ").endsWith("…");
    assertThat(held.styleAt(held.length() - 1)).isEqualTo(GREEN);
  }

  @Test
  void aShortScreenKeepsThePoolsAndTheNewestEvents() {
    // Title, blank, pool and 4 requests, blank, heading: 9 rows, so 3 rows for events.
    List<AttributedString> frame = render(400, 12);

    assertThat(frame).hasSize(12);
    assertThat(frame).extracting(AttributedString::toString).contains("events:");
    assertThat(frame.subList(frame.size() - 3, frame.size()))
        .extracting(AttributedString::toString)
        .containsExactlyElementsOf(
            events.subList(events.size() - 3, events.size()).stream()
                .map(GateText::event)
                .toList());
    for (String agent : List.of("holder", "next", "waiter", "decliner")) {
      lineOf(frame, agent);
    }
  }

  @Test
  void whenThePoolsDoNotFitAFaintRowCountsTheRowsLeftOut() {
    assertThat(events).hasSizeGreaterThan(TopFrame.EVENT_ROWS_KEPT);
    // Title, blank, 3 pool rows, blank, heading, the 3 kept events.
    List<AttributedString> frame = render(400, 10);

    assertThat(frame).hasSize(10);
    assertThat(frame.get(2).toString()).startsWith("pool build");
    assertThat(frame.get(3).toString()).startsWith("  held ");
    AttributedString elided = frame.get(4);
    assertThat(elided.toString()).isEqualTo("  … 3 more");
    assertThat(elided.styleAt(0)).isEqualTo(AttributedStyle.DEFAULT.faint());
    assertThat(frame.get(6).toString()).isEqualTo("events:");
    assertThat(frame.get(9).toString()).isEqualTo(GateText.event(events.get(events.size() - 1)));

    // Fewer rows than the pools need and the kept events: the pools win, the events go.
    List<AttributedString> tiny = render(400, 5);
    assertThat(tiny).hasSize(5).extracting(AttributedString::toString).doesNotContain("events:");
    assertThat(tiny.get(2).toString()).startsWith("pool build");
    assertThat(tiny.get(4).toString()).isEqualTo("  … 3 more");

    assertThat(render(400, 1)).hasSize(1);
    assertThat(render(400, 0)).isEmpty();
  }

  @Test
  void everyLiveStateHasItsOwnColour() {
    assertThat(
            List.of(TicketState.HELD, TicketState.OFFERED, TicketState.QUEUED, TicketState.PAUSED))
        .extracting(TopStyles::of)
        .containsExactly(GREEN, YELLOW, CYAN, MAGENTA);
  }
}
