/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static dev.sluice.cli.top.TopFixtures.NOW;
import static dev.sluice.cli.top.TopFixtures.busyPool;
import static dev.sluice.cli.top.TopFixtures.clockAt;
import static dev.sluice.cli.top.TopFixtures.rowOf;
import static dev.sluice.cli.top.TopFixtures.state;
import static dev.sluice.cli.top.TopFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.gate.GateEvent;
import dev.sluice.gate.PoolStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Countdowns read from the injected clock: offers, start deadlines and untracked leases count down
 * in whole seconds rounded up, the frame says when the first of them next changes, a passed
 * deadline reads as such until the gate applies it, and a frame with nothing counting down asks for
 * no redraw at all. Times are local, without milliseconds.
 */
class TopFrameCountdownTest {
  static TopFrame.Frame at(Instant now) {
    return TopFrame.render(state(busyPool(), List.of()), clockAt(now), 80, 24, TopStyles.COLOUR);
  }

  @Test
  void countdownsReadFromTheClockAndTheFrameSaysWhenTheFirstNextChanges() {
    TopFrame.Frame first = at(NOW);
    List<String> rows = text(first.lines());
    assertThat(rowOf(rows, "docs")).endsWith("offered    1  expires in 13s");
    assertThat(rowOf(rows, "lint")).endsWith("claimed    1  start within 58s");
    assertThat(rowOf(rows, "agent task")).endsWith("running    1  lapses in 45s");
    // The offer has 12.3 s left: it reads 12 s from 300 ms on.
    assertThat(first.redrawAt()).contains(NOW.plusMillis(300));

    TopFrame.Frame next = at(NOW.plusMillis(300));
    assertThat(rowOf(text(next.lines()), "docs")).endsWith("expires in 12s");
    // Now the start deadline (58 s from NOW) turns its second first.
    assertThat(next.redrawAt()).contains(NOW.plusSeconds(1));

    TopFrame.Frame minutes = at(NOW.minusSeconds(60));
    assertThat(rowOf(text(minutes.lines()), "docs")).endsWith("expires in 1m13s");
    assertThat(rowOf(text(minutes.lines()), "lint")).endsWith("start within 1m58s");
  }

  @Test
  void aPassedDeadlineReadsAsAnAlertAndNoLongerAsksForARedraw() {
    TopFrame.Frame offerGone = at(NOW.plusMillis(12_300));
    List<String> rows = text(offerGone.lines());
    assertThat(rowOf(rows, "docs")).endsWith("offered    1  expired");
    // Next: the lease, 32.7 s left at 12.3 s, reads 32 s from 13 s on.
    assertThat(offerGone.redrawAt()).contains(NOW.plusSeconds(13));

    TopFrame.Frame allGone = at(NOW.plusSeconds(60));
    List<String> late = text(allGone.lines());
    assertThat(rowOf(late, "lint")).endsWith("start overdue");
    assertThat(rowOf(late, "agent task")).endsWith("lapsed");
    assertThat(allGone.redrawAt()).isEmpty();
    var lapsed = allGone.lines().get(rows.indexOf(rowOf(rows, "agent task")));
    assertThat(lapsed.styleAt(lapsed.length() - 1)).isEqualTo(TopStyles.COLOUR.of(Tone.ALERT));
  }

  @Test
  void withNothingCountingDownOnlyTheGateCausesARedraw() {
    PoolStatus calm =
        new PoolStatus(
            "build",
            2,
            2,
            List.of(TopFixtures.queued("r2", "next", 1)),
            List.of(TopFixtures.running("r1", "build")),
            List.of(),
            List.of(TopFixtures.paused("r3", "later")));
    TopFrame.Frame frame =
        TopFrame.render(state(List.of(calm), List.of()), clockAt(NOW), 80, 24, TopStyles.COLOUR);

    assertThat(frame.redrawAt()).isEmpty();
    TopFrame.Frame anHourLater =
        TopFrame.render(
            state(List.of(calm), List.of()),
            clockAt(NOW.plus(Duration.ofHours(1))),
            80,
            24,
            TopStyles.COLOUR);
    assertThat(anHourLater.lines()).isEqualTo(frame.lines());
  }

  @Test
  void timesAreLocalWithoutMillisecondsInTheTitleTheTableAndTheFeed() {
    GateEvent offered =
        new GateEvent(
            7,
            Instant.parse("2026-03-01T09:29:59.987Z"),
            "offered",
            "build",
            "r4",
            "bob",
            "until 2026-03-01T09:30:12.300Z");
    TopState s = state(busyPool(), List.of(new FeedEvent(offered, "docs")));
    List<String> rows = text(TopFrame.render(s, clockAt(NOW), 80, 24, TopStyles.COLOUR).lines());

    assertThat(rows.get(0)).contains("as of 14:59:55 ");
    assertThat(rowOf(rows, "r5")).endsWith("since 14:58:30");
    assertThat(rows.get(rows.size() - 1))
        .isEqualTo("14:59:59  offered        build  docs  until 15:00:12");
    assertThat(String.join("\n", rows)).doesNotContainPattern("\\d\\d:\\d\\d:\\d\\d\\.\\d|Z\\b");
  }
}
