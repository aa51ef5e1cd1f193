/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import org.jline.utils.AttributedStyle;

/**
 * The styles of {@code sluice top}, in colour or in monochrome. With colours each {@link Tone} has
 * its own (running and held green, offered yellow, queued cyan, paused dim, lost red); without, the
 * layout is the same, only the title bar is reversed and headings and alerts are bold, so nothing
 * depends on colour to be read.
 *
 * <p>Immutable and thread-safe; never blocks.
 */
final class TopStyles {
  /** The least number of colours a terminal needs for the coloured styles. */
  static final int COLOURS_NEEDED = 8;

  static final TopStyles COLOUR = new TopStyles(true);
  static final TopStyles MONOCHROME = new TopStyles(false);

  private final boolean colour;

  private TopStyles(boolean colour) {
    this.colour = colour;
  }

  /**
   * The styles for a terminal with {@code maxColours} colours (terminfo's {@code colors}, -1 when
   * it has none), honouring <a href="https://no-color.org">{@code NO_COLOR}</a>: any non-empty
   * value turns colours off.
   *
   * @param noColour the value of {@code NO_COLOR}, or null when unset
   */
  static TopStyles forTerminal(int maxColours, String noColour) {
    boolean asked = noColour != null && !noColour.isEmpty();
    return maxColours >= COLOURS_NEEDED && !asked ? COLOUR : MONOCHROME;
  }

  /** Whether these styles use colours. */
  boolean colour() {
    return colour;
  }

  /** The title bar: reversed, so it reads as the screen's frame rather than as data. */
  AttributedStyle title() {
    return AttributedStyle.INVERSE;
  }

  /** Pool names and the events heading. */
  AttributedStyle heading() {
    return AttributedStyle.BOLD;
  }

  /** The column names above the requests, and the row that counts rows left out. */
  AttributedStyle muted() {
    return colour ? AttributedStyle.DEFAULT.faint() : AttributedStyle.DEFAULT;
  }

  /** The style of a cell with this meaning. */
  AttributedStyle of(Tone tone) {
    if (!colour) {
      return tone == Tone.ALERT ? AttributedStyle.BOLD : AttributedStyle.DEFAULT;
    }
    return switch (tone) {
      case PLAIN -> AttributedStyle.DEFAULT;
      case ACTIVE -> AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
      case OFFERED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
      case WAITING -> AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
      case IDLE -> AttributedStyle.DEFAULT.faint();
      case ALERT -> AttributedStyle.BOLD.foreground(AttributedStyle.RED);
    };
  }
}
