/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Real signals to the tests' worker JVMs, through {@code kill}, and their process state. */
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

  /** Whether {@code pid} is stopped by a signal, by its state in {@code /proc/<pid>/stat}. */
  static boolean stopped(long pid) throws IOException {
    String stat =
        Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
    // The state follows the command name, which is in parentheses and may contain spaces.
    return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
  }
}
