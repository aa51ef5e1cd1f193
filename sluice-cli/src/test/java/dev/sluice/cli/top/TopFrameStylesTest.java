/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import static dev.sluice.cli.top.TopFixtures.NOW;
import static dev.sluice.cli.top.TopFixtures.busyPool;
import static dev.sluice.cli.top.TopFixtures.clockAt;
import static dev.sluice.cli.top.TopFixtures.colourCodes;
import static dev.sluice.cli.top.TopFixtures.events;
import static dev.sluice.cli.top.TopFixtures.rowOf;
import static dev.sluice.cli.top.TopFixtures.state;
import static dev.sluice.cli.top.TopFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

/**
 * Colours for states when the terminal has them, none when it has not or {@code NO_COLOR} is set,
 * and the same layout either way.
 */
class TopFrameStylesTest {
  static final AttributedStyle GREEN = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
  static final AttributedStyle YELLOW = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
  static final AttributedStyle CYAN = AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);

  static List<AttributedString> render(TopStyles styles) {
    return TopFrame.render(state(busyPool(), events(6)), clockAt(NOW), 80, 24, styles).lines();
  }

  /** The style of the first column of the row's state cell. */
  static AttributedStyle stateStyle(List<AttributedString> lines, String name) {
    List<String> rows = text(lines);
    int column = rows.get(1).indexOf("STATE");
    return lines.get(rows.indexOf(rowOf(rows, name))).styleAt(column);
  }

  @Test
  void withColoursEachStateHasItsOwn() {
    List<AttributedString> lines = render(TopStyles.COLOUR);

    assertThat(stateStyle(lines, "integration tests")).isEqualTo(GREEN);
    assertThat(stateStyle(lines, "lint")).isEqualTo(GREEN);
    assertThat(stateStyle(lines, "docs")).isEqualTo(YELLOW);
    assertThat(stateStyle(lines, "r5")).isEqualTo(CYAN);
    assertThat(stateStyle(lines, "nightly")).isEqualTo(AttributedStyle.DEFAULT.faint());
    assertThat(lines.get(0).styleAt(0)).isEqualTo(AttributedStyle.INVERSE);
    assertThat(lines.get(0).columnLength()).as("the title bar spans the width").isEqualTo(80);
    assertThat(colourCodes(lines.get(lines.size() - 1)))
        .as("a granted event")
        .containsExactly("32");
  }

  @Test
  void withoutColoursTheLayoutIsTheSameAndNoCellIsColoured() {
    List<AttributedString> colour = render(TopStyles.COLOUR);
    List<AttributedString> mono = render(TopStyles.MONOCHROME);

    assertThat(text(mono)).isEqualTo(text(colour));
    assertThat(mono).allSatisfy(l -> assertThat(colourCodes(l)).as(l.toString()).isEmpty());
    for (AttributedString line : mono) {
      for (int i = 0; i < line.length(); i++) {
        assertThat(line.styleAt(i))
            .isIn(AttributedStyle.DEFAULT, AttributedStyle.BOLD, AttributedStyle.INVERSE);
      }
    }
    assertThat(colour.stream().mapToInt(l -> colourCodes(l).size()).sum()).isPositive();
  }

  @Test
  void coloursNeedEightOfThemAndNoNoColor() {
    assertThat(TopStyles.forTerminal(256, null)).isSameAs(TopStyles.COLOUR);
    assertThat(TopStyles.forTerminal(8, "")).isSameAs(TopStyles.COLOUR);
    assertThat(TopStyles.forTerminal(256, "1")).isSameAs(TopStyles.MONOCHROME);
    assertThat(TopStyles.forTerminal(-1, null)).isSameAs(TopStyles.MONOCHROME);
    assertThat(TopStyles.forTerminal(2, null)).isSameAs(TopStyles.MONOCHROME);
  }

  @Test
  void eventTypesAreColouredByWhatTheyMeanForTheRequest() {
    assertThat(List.of("granted", "offered", "queued", "declined", "reclaimed", "released"))
        .extracting(FeedRows::tone)
        .containsExactly(
            Tone.ACTIVE, Tone.OFFERED, Tone.WAITING, Tone.IDLE, Tone.ALERT, Tone.PLAIN);
    assertThat(List.of("force_released", "signalled", "failed", "launcher_gone"))
        .extracting(FeedRows::tone)
        .containsOnly(Tone.ALERT);
  }
}
