/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.command;

import java.io.PrintWriter;
import sun.misc.Signal;

/**
 * Ends a command that runs until interrupted ({@code events --follow}) cleanly on SIGINT or
 * SIGTERM: waits until no line is half-printed, runs a last action, exits 0. Thread-safe; the
 * handler runs on the JVM's signal thread and blocks only for the output lock.
 */
final class Interrupts {
  private Interrupts() {}

  /**
   * Installs the handlers.
   *
   * @param out the output, used as the lock that printing holds for each line
   * @param last what to print or undo before exiting (for example, show the cursor again)
   */
  static void exitOnSignal(PrintWriter out, Runnable last) {
    for (String name : new String[] {"INT", "TERM"}) {
      Signal.handle(
          new Signal(name),
          s -> {
            synchronized (out) {
              last.run();
              out.flush();
              // An interrupt is how these commands are meant to end: a success.
              System.exit(0);
            }
          });
    }
  }
}
