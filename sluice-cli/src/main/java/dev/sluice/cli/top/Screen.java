/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.top;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.Display;
import org.jline.utils.InfoCmp.Capability;

/**
 * The terminal as {@code sluice top} uses it: raw mode (keys arrive one at a time, unechoed), the
 * alternate screen (the shell's screen comes back untouched on exit), a hidden cursor, and a JLine
 * {@link Display} that rewrites only what changed between frames, so nothing flickers. {@link
 * #close()} undoes all of it, in reverse order.
 *
 * <p>Not thread-safe: one thread draws and closes. {@link #readKey()} is the exception: one other
 * thread may block in it while frames are drawn, and even after {@link #close()}. {@link
 * #readKey()} blocks until a key arrives; {@link #draw} blocks only while the terminal takes the
 * output.
 */
final class Screen implements AutoCloseable {
  /** Used when the terminal reports no size, as a pseudo-terminal nobody sized does. */
  private static final Size FALLBACK = new Size(80, 24);

  private final Terminal terminal;
  private final Attributes saved;
  private final Display display;
  // Never closed: closing it would close the process's standard input.
  private final InputStream keys = new FileInputStream(FileDescriptor.in);
  private Size size = new Size(0, 0);

  private Screen(Terminal terminal) {
    this.terminal = terminal;
    this.saved = terminal.enterRawMode();
    // JLine's raw mode returns from a read after 0.1 s without a key; a key reader would then spin
    // ten times a second. One byte at a time and no timer: the reader sleeps in the kernel.
    Attributes raw = terminal.getAttributes();
    raw.setControlChar(Attributes.ControlChar.VMIN, 1);
    raw.setControlChar(Attributes.ControlChar.VTIME, 0);
    // Ctrl-C (and Ctrl-Z) arrive as keys: the view quits on Ctrl-C itself, and is never suspended
    // with the terminal still raw and on the alternate screen.
    raw.setLocalFlag(Attributes.LocalFlag.ISIG, false);
    terminal.setAttributes(raw);
    terminal.puts(Capability.enter_ca_mode);
    terminal.puts(Capability.cursor_invisible);
    terminal.flush();
    this.display = new Display(terminal, true);
  }

  /**
   * Takes over the process's terminal, or returns empty if it is not one JLine can drive (a dumb
   * terminal: no cursor movement, so no frames to redraw in place).
   *
   * @throws IOException if the terminal cannot be opened
   */
  static Optional<Screen> open() throws IOException {
    Terminal terminal = TerminalBuilder.builder().system(true).build();
    String type = terminal.getType();
    if (type == null
        || type.startsWith(Terminal.TYPE_DUMB)
        || terminal.getStringCapability(Capability.cursor_address) == null) {
      terminal.close();
      return Optional.empty();
    }
    return Optional.of(new Screen(terminal));
  }

  /** Runs {@code action} on JLine's signal thread whenever the window changes size. */
  void onResize(Runnable action) {
    terminal.handle(Terminal.Signal.WINCH, s -> action.run());
  }

  /** Runs {@code action} on JLine's signal thread on SIGINT (Ctrl-C). */
  void onInterrupt(Runnable action) {
    terminal.handle(Terminal.Signal.INT, s -> action.run());
  }

  /**
   * The next byte typed, or -1 once the terminal has no more input. Blocks in the kernel until
   * then.
   *
   * <p>Reads standard input (the terminal) directly rather than through {@link Terminal#reader()}:
   * JLine's blocking read holds a lock that {@link Terminal#close()} also needs, so a view ended by
   * a signal while a key read is pending would never get its terminal back; and JLine's timed read
   * polls ten times a second. Nothing else reads the terminal while the view runs.
   */
  int readKey() throws IOException {
    return keys.read();
  }

  /** How many colours the terminal has (terminfo's {@code colors}), or -1 if it has none. */
  int maxColours() {
    Integer colours = terminal.getNumericCapability(Capability.max_colors);
    return colours == null ? -1 : colours;
  }

  /** The size frames are laid out in (re-read from the terminal; see {@link #draw}). */
  Size size() {
    Size now = terminal.getSize();
    return now.getRows() <= 0 || now.getColumns() <= 0 ? FALLBACK : now;
  }

  /**
   * Shows {@code lines}, which must fit {@code fitted} (the size they were laid out in). A new size
   * clears the screen first, because the old frame's rows no longer line up with the new one's.
   */
  void draw(List<AttributedString> lines, Size fitted) {
    if (!fitted.equals(size)) {
      size = new Size(fitted.getColumns(), fitted.getRows());
      display.resize(fitted.getRows(), fitted.getColumns());
      display.clear();
    }
    // -1: leave the (hidden) cursor wherever the last change left it.
    display.update(lines, -1);
    terminal.flush();
  }

  /** Shows the cursor, leaves the alternate screen, restores the terminal's modes, closes it. */
  @Override
  public void close() throws IOException {
    try {
      terminal.puts(Capability.cursor_normal);
      terminal.puts(Capability.exit_ca_mode);
      terminal.flush();
      terminal.setAttributes(saved);
    } finally {
      terminal.close();
    }
  }
}
