/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static dev.sluice.cli.top.TopFixtures.LONG;
import static dev.sluice.cli.top.TopFixtures.NOW;
import static dev.sluice.cli.top.TopFixtures.busyPool;
import static dev.sluice.cli.top.TopFixtures.clockAt;
import static dev.sluice.cli.top.TopFixtures.events;
import static dev.sluice.cli.top.TopFixtures.rowOf;
import static dev.sluice.cli.top.TopFixtures.state;
import static dev.sluice.cli.top.TopFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

/**
 * The live view's layout at the sizes people use: at 80×24 and 60×20 nothing wraps, every request
 * keeps its state, weight and time columns on screen and a long label is cut instead; at 200×50 the
 * label gets the room and the agent, id and pid get columns. The event feed fills every row left.
 */
class TopFrameTest {
  /** Each request's label cell start, and the state and time its row must show in full. */
  static final Map<String, List<String>> EXPECTED =
      Map.of(
          "integration tests", List.of("running", "since 14:58:30"),
          "lint", List.of("claimed", "start within 58s"),
          "agent task", List.of("running", "lapses in 45s"),
          "docs", List.of("offered", "expires in 13s"),
          "r5", List.of("queued #1", "since 14:58:30"),
          "nightly", List.of("paused", "since 14:58:30"));

  static TopFrame.Frame render(int width, int height, int events) {
    return TopFrame.render(
        state(busyPool(), events(events)), clockAt(NOW), width, height, TopStyles.COLOUR);
  }

  /**
   * Every line fits, every request's row shows its state and time whole, and those columns start at
   * the same place in every row as in the column names.
   */
  static void assertFitsWithStateColumnsOnScreen(TopFrame.Frame frame, int width, int height) {
    assertThat(frame.lines()).hasSize(height);
    assertThat(frame.lines())
        .allSatisfy(l -> assertThat(l.columnLength()).isLessThanOrEqualTo(width));
    List<String> rows = text(frame.lines());
    String header = rows.get(1);
    assertThat(header).startsWith("  LABEL").contains("STATE", " W  TIME");
    int stateColumn = header.indexOf("STATE");
    int timeColumn = header.indexOf("TIME");
    EXPECTED.forEach(
        (name, cells) -> {
          // From 100 columns the id has its own column; a request without a label shows "-".
          String row = rowOf(rows, width >= TicketTable.WIDE && name.equals("r5") ? "- " : name);
          assertThat(row.indexOf(cells.get(0), stateColumn - 1)).as(row).isEqualTo(stateColumn);
          assertThat(row.substring(timeColumn)).as(row).isEqualTo(cells.get(1));
        });
  }

  @Test
  void at80x24NothingWrapsLongLabelsAreCutAndTheFeedFillsTheRest() {
    TopFrame.Frame frame = render(80, 24, 40);

    assertFitsWithStateColumnsOnScreen(frame, 80, 24);
    List<String> rows = text(frame.lines());
    assertThat(rows.get(0))
        .startsWith(" sluice top  /home/someone/.local/state/sluice  as of 14:59:55")
        .endsWith("q quits ")
        .hasSize(80);
    assertThat(rows.get(2)).isEqualTo("build  5/4 used  3 held, 1 offered, 1 queued, 1 paused");
    String holder = rowOf(rows, "integration tests");
    assertThat(holder).contains("…  running").doesNotContain(" r1 ", "agent-r1", "4242");
    // Title, column names, pool, six requests, the feed's heading: 14 rows left for events.
    assertThat(rows.get(9)).isEqualTo("events");
    assertThat(rows.subList(10, 24))
        .allSatisfy(r -> assertThat(r).matches("\\d\\d:\\d\\d:\\d\\d  granted        build  .*"));
    assertThat(rows.get(23)).isEqualTo("15:00:00  granted        build  event label 40  weight 1");
    assertThat(rows.get(22)).isEqualTo("14:59:59  granted        build  r139            weight 1");
  }

  @Test
  void at60x20TheSameColumnsStillFit() {
    TopFrame.Frame frame = render(60, 20, 40);

    assertFitsWithStateColumnsOnScreen(frame, 60, 20);
    List<String> rows = text(frame.lines());
    assertThat(rowOf(rows, "integration tests")).contains("…  running");
    assertThat(rows.get(19)).isEqualTo("15:00:00  granted        build  event label 40  weight 1");
  }

  @Test
  void at200x50LongLabelsAreWholeAndAgentIdAndPidGetColumns() {
    TopFrame.Frame frame = render(200, 50, 40);

    assertFitsWithStateColumnsOnScreen(frame, 200, 50);
    List<String> rows = text(frame.lines());
    assertThat(rows.get(1)).contains("AGENT", "ID", "PID");
    assertThat(rowOf(rows, "integration tests"))
        .startsWith("  " + LONG + "  agent-r1  r1     4242  running");
    assertThat(rowOf(rows, "lint")).contains("  agent-r2  r2        -  claimed");
    // Ten rows above the feed, 40 events: every event fits, the oldest first.
    assertThat(rows.get(10))
        .isEqualTo("14:59:21  granted        build  r101  -               weight 1");
    assertThat(rows.get(49))
        .isEqualTo("15:00:00  granted        build  r140  event label 40  weight 1");
  }

  @Test
  void theFeedFollowsTheScreensHeightNewestAtTheBottom() {
    List<String> short24 = text(render(80, 24, 40).lines());
    List<String> tall40 = text(render(80, 40, 40).lines());

    assertThat(tall40).hasSize(40);
    assertThat(tall40.subList(10, 40)).containsAll(short24.subList(10, 24));
    assertThat(tall40.get(39)).isEqualTo(short24.get(23));
    assertThat(tall40.get(10)).startsWith("14:59:31");
  }

  @Test
  void withFewEventsTheFrameEndsAfterThem() {
    List<String> rows = text(render(80, 24, 2).lines());

    assertThat(rows).hasSize(12);
    assertThat(rows.get(9)).isEqualTo("events");
    List<String> none =
        text(
            TopFrame.render(state(busyPool(), List.of()), clockAt(NOW), 80, 24, TopStyles.COLOUR)
                .lines());
    assertThat(none.get(none.size() - 1)).isEqualTo("events: none yet");
  }

  @Test
  void whenThePoolsDoNotFitAFaintRowCountsTheRowsLeftOut() {
    // Title, column names, pool, 2 requests, the count, the heading, the 3 kept events.
    TopFrame.Frame frame = render(80, 10, 40);
    List<String> rows = text(frame.lines());

    assertThat(rows).hasSize(10);
    assertThat(rows.get(3)).startsWith("  integration tests");
    assertThat(rows.get(4)).startsWith("  lint");
    assertThat(rows.get(5)).isEqualTo("  … 4 more");
    assertThat(frame.lines().get(5).styleAt(2)).isEqualTo(TopStyles.COLOUR.muted());
    assertThat(rows.get(6)).isEqualTo("events");
    assertThat(rows.get(9)).startsWith("15:00:00");
    // The offer's countdown is not on screen, so only the start deadline's asks for a redraw.
    assertThat(frame.redrawAt()).contains(NOW.plusSeconds(1));

    // Fewer rows than the pools need and the kept events: the pools win, the events go.
    List<String> tiny = text(render(80, 5, 40).lines());
    assertThat(tiny).hasSize(5).doesNotContain("events");
    assertThat(tiny.get(4)).isEqualTo("  … 5 more");

    assertThat(render(80, 1, 40).lines()).hasSize(1);
    assertThat(render(80, 0, 40).lines()).isEmpty();
  }

  @Test
  void withoutPoolsTheTableSaysHowToMakeOne() {
    List<String> rows =
        text(
            TopFrame.render(state(List.of(), List.of()), clockAt(NOW), 80, 24, TopStyles.COLOUR)
                .lines());

    assertThat(rows)
        .containsExactly(
            rows.get(0), "no pools yet: sluice pool set NAME --capacity N", "events: none yet");
  }

  @Test
  void controlCharactersInALabelCannotReachTheTerminal() {
    var evil = TopFixtures.queued("r9", "evil\033[31m\nlabel", 1);
    var pools =
        List.of(
            new dev.sluice.gate.PoolStatus(
                "build", 1, 0, List.of(evil), List.of(), List.of(), List.of()));
    List<AttributedString> lines =
        TopFrame.render(state(pools, List.of()), clockAt(NOW), 80, 24, TopStyles.COLOUR).lines();

    assertThat(text(lines)).anySatisfy(l -> assertThat(l).startsWith("  evil?[31m?label  queued"));
    assertThat(text(lines)).noneSatisfy(l -> assertThat(l).containsAnyOf("\033", "\n"));
  }
}
