/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Real signals to the tests' worker JVMs, through {@code kill}. */
final class Signals {
  private Signals() {}

  /** Sends {@code SIG<name>} (for example {@code STOP}, {@code CONT}) to {@code pid}. */
  static void send(String name, long pid) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending SIG" + name, e);
    }
  }
}
