/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs a shell command line on a real pseudo-terminal: util-linux {@code script -qefc} makes one,
 * runs the line on it, relays its own stdin to it and its screen to its stdout, and exits with the
 * line's status. Tests that need it skip themselves where {@code script} is missing.
 */
final class PseudoTerminal {
  static final Path SCRIPT = Path.of("/usr/bin/script");

  private PseudoTerminal() {}

  /** Whether pseudo-terminal tests can run here. */
  static boolean available() {
    return Files.isExecutable(SCRIPT);
  }

  /** {@code words} as one shell command line, each single-quoted. */
  static String shellLine(List<String> words) {
    return words.stream().map(PseudoTerminal::quote).collect(Collectors.joining(" "));
  }

  static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Starts {@code shell} on a new pseudo-terminal with {@code TERM=xterm-256color} and no {@code
   * SLUICE_HOME}; the process's stdout is the screen (stderr merged).
   */
  static Process start(String shell) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(SCRIPT.toString(), "-qefc", shell, "/dev/null");
    pb.environment().put("TERM", "xterm-256color");
    pb.environment().remove("SLUICE_HOME");
    pb.environment().remove("SLUICE_AGENT_ID");
    pb.redirectErrorStream(true);
    return pb.start();
  }
}
