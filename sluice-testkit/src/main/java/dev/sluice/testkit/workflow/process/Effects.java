/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.testkit.workflow.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The lines the step bodies of {@link ChainWorker}s appended to their log, read back by a process
 * test.
 *
 * @param lines each line, split at spaces
 */
public record Effects(List<String[]> lines) {
  /**
   * Reads a log.
   *
   * @param log the file the workers appended to
   * @return its lines
   * @throws IOException if it cannot be read
   */
  public static Effects read(Path log) throws IOException {
    List<String[]> lines = new ArrayList<>();
    for (String l : Files.readAllLines(log)) {
      lines.add(l.split(" "));
    }
    return new Effects(lines);
  }

  /**
   * Returns "IDEMPOTENCY-KEY PID" of each side effect of one step, in the order they happened.
   *
   * @param execution the execution's id
   * @param key the step's key
   * @return the effects
   */
  public List<String> of(String execution, String key) {
    List<String> out = new ArrayList<>();
    for (String[] l : lines) {
      if (l[0].equals("effect") && l[1].equals(execution) && l[2].equals(key)) {
        out.add(l[3] + " " + l[4]);
      }
    }
    return out;
  }

  /**
   * Returns [start, end] of each finished body of one execution, by start.
   *
   * @param execution the execution's id
   * @return the bodies
   */
  public List<long[]> bodies(String execution) {
    List<long[]> out = new ArrayList<>();
    for (String[] l : lines) {
      if (l[0].equals("body") && l[1].equals(execution)) {
        out.add(new long[] {Long.parseLong(l[4]), Long.parseLong(l[5])});
      }
    }
    out.sort(Comparator.comparingLong(b -> b[0]));
    return out;
  }

  /** Returns the pids of the workers that finished a body. */
  public Set<String> pids() {
    Set<String> out = new HashSet<>();
    for (String[] l : lines) {
      if (l[0].equals("body")) {
        out.add(l[3]);
      }
    }
    return out;
  }
}
