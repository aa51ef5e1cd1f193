/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.utils.ScreenTerminal;

/**
 * What a terminal of a given size shows after some output: the output is replayed through JLine's
 * {@link ScreenTerminal}, an xterm-style emulator, so a test checks rows and colours as a person
 * would see them rather than the escape sequences that drew them. Immutable.
 */
final class TerminalScreen {
  private static final Pattern SGR = Pattern.compile("\033\\[([0-9;]*)m");

  private final int columns;
  private final List<String> rows;
  private final long[] cells;

  private TerminalScreen(int columns, List<String> rows, long[] cells) {
    this.columns = columns;
    this.rows = rows;
    this.cells = cells;
  }

  /** The screen after {@code output}, shown on a {@code columns}×{@code rows} terminal. */
  static TerminalScreen of(String output, int columns, int rows) {
    return after(new ScreenTerminal(columns, rows), output);
  }

  /**
   * The screen after {@code before} on a {@code columns}×{@code rows} terminal that is then resized
   * to {@code newColumns}×{@code newRows} and shows {@code after}.
   */
  static TerminalScreen resized(
      String before, int columns, int rows, String after, int newColumns, int newRows) {
    ScreenTerminal t = new ScreenTerminal(columns, rows);
    t.write(before);
    t.setSize(newColumns, newRows);
    return after(t, after);
  }

  private static TerminalScreen after(ScreenTerminal t, String output) {
    t.write(output);
    int width = t.getWidth();
    int height = t.getHeight();
    long[] cells = new long[width * height];
    t.dump(cells, new int[2]);
    List<String> rows = new ArrayList<>();
    for (int r = 0; r < height; r++) {
      StringBuilder b = new StringBuilder();
      for (int c = 0; c < width; c++) {
        b.appendCodePoint(ScreenTerminal.cellCodePoint(cells[r * width + c]));
      }
      rows.add(b.toString().stripTrailing());
    }
    return new TerminalScreen(width, List.copyOf(rows), cells);
  }

  /** The rows, top first, without trailing blanks. */
  List<String> rows() {
    return rows;
  }

  /** The first row that contains {@code text}, or -1. */
  int rowWith(String text) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the cell at {@code row}, {@code column} has a foreground colour. */
  boolean coloured(int row, int column) {
    return ScreenTerminal.cellHasForeground(cells[row * columns + column]);
  }

  /** Whether any cell has a foreground or background colour. */
  boolean anyColour() {
    for (long cell : cells) {
      if (ScreenTerminal.cellHasForeground(cell) || ScreenTerminal.cellHasBackground(cell)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code output} sets a foreground or background colour anywhere. */
  static boolean setsColours(String output) {
    Matcher m = SGR.matcher(output);
    while (m.find()) {
      for (String p : m.group(1).split(";")) {
        if (p.matches("3[0-9]|4[0-9]|9[0-7]|10[0-7]")) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "--- screen\n" + String.join("\n", rows);
  }
}
