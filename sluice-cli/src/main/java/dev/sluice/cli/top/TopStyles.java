/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import dev.sluice.gate.TicketState;
import org.jline.utils.AttributedStyle;

/**
 * The colours of {@code sluice top}'s live view: one per ticket state, so that what holds, what is
 * offered, what waits and what is paused can be told apart at a glance, plus the header's and the
 * pool lines' emphasis. Stateless and thread-safe; never blocks.
 */
final class TopStyles {
  /** The title bar: reversed, so it reads as the screen's frame rather than as data. */
  static final AttributedStyle TITLE = AttributedStyle.DEFAULT.inverse();

  /** A pool's numbers and the events heading. */
  static final AttributedStyle HEADING = AttributedStyle.BOLD;

  /** Event lines and blank rows. */
  static final AttributedStyle PLAIN = AttributedStyle.DEFAULT;

  /** A row that says how many rows did not fit. */
  static final AttributedStyle ELIDED = AttributedStyle.DEFAULT.faint();

  private TopStyles() {}

  /** The colour of a ticket line in {@code state}. */
  static AttributedStyle of(TicketState state) {
    switch (state) {
      case HELD:
        return AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
      case OFFERED:
        return AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
      case QUEUED:
        return AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
      case PAUSED:
        return AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA);
      default:
        // status() lists only live tickets; an ended one would not need a colour of its own.
        return PLAIN;
    }
  }
}
