/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A worker process's side of the line protocol: commands arrive one per line on stdin, replies
 * leave one per line on stdout, flushed at once. The end of stdin means the harness is gone. Reply
 * methods are thread-safe.
 */
final class WorkerIo {
  private final BufferedReader in =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
  private final PrintStream out = System.out;

  /**
   * Reads the next command.
   *
   * @return the line, or {@code null} at the end of stdin
   * @throws IOException if stdin fails
   */
  String next() throws IOException {
    return in.readLine();
  }

  /**
   * Sends one reply line.
   *
   * @param line the reply, without a line break
   */
  synchronized void reply(String line) {
    out.println(line);
    out.flush();
  }
}
