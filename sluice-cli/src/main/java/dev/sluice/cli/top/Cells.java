/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Text cut and padded to a number of terminal columns (wide characters count for two), so that
 * columns line up and no line is wider than the screen. Stateless and thread-safe; never blocks.
 */
final class Cells {
  /** What ends a cut cell. */
  static final String ELLIPSIS = "…";

  private Cells() {}

  /**
   * {@code text} with control characters (a newline or an escape in a label) shown as {@code ?}:
   * they would move the cursor or change the terminal's state instead of printing.
   */
  static String clean(String text) {
    StringBuilder b = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        if (b == null) {
          b = new StringBuilder(text.substring(0, i));
        }
        b.append('?');
      } else if (b != null) {
        b.append(c);
      }
    }
    return b == null ? text : b.toString();
  }

  /** How many columns {@code text} takes. */
  static int width(String text) {
    return new AttributedString(text).columnLength();
  }

  /** {@code text} in at most {@code width} columns, its last column {@code …} if it was cut. */
  static String fit(String text, int width) {
    if (width <= 0) {
      return "";
    }
    AttributedString s = new AttributedString(text);
    if (s.columnLength() <= width) {
      return text;
    }
    return s.columnSubSequence(0, width - 1).toString() + ELLIPSIS;
  }

  /** {@code text} cut to {@code width} columns and padded with spaces to exactly that. */
  static String left(String text, int width) {
    String fitted = fit(text, width);
    return fitted + " ".repeat(Math.max(0, width - width(fitted)));
  }

  /** {@code text} cut to {@code width} columns and right-aligned in exactly that. */
  static String right(String text, int width) {
    String fitted = fit(text, width);
    return " ".repeat(Math.max(0, width - width(fitted))) + fitted;
  }

  /** The line cut to {@code width} columns, its last column a {@code …} in the cut text's style. */
  static AttributedString fit(AttributedString line, int width) {
    if (line.columnLength() <= width) {
      return line;
    }
    if (width <= 0) {
      return AttributedString.EMPTY;
    }
    AttributedString head = line.columnSubSequence(0, width - 1);
    AttributedStyle style = head.length() > 0 ? head.styleAt(head.length() - 1) : line.styleAt(0);
    return new AttributedStringBuilder().append(head).append(ELLIPSIS, style).toAttributedString();
  }
}
