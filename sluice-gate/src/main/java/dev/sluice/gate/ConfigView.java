/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.nio.file.Path;
import java.util.List;

/**
 * The gate's configuration as {@code sluice config get} shows it: every known key with its value,
 * and every line of the file the gate cannot use. While {@link #problems()} is not empty, every
 * gate command but the {@code config} verbs fails.
 *
 * @param file the configuration file (it may not exist: then every key takes its default)
 * @param entries every known key, in the documented order
 * @param problems the file's unusable lines, in file order
 */
public record ConfigView(Path file, List<ConfigEntry> entries, List<ConfigProblem> problems) {
  /** Copies the lists. */
  public ConfigView {
    entries = List.copyOf(entries);
    problems = List.copyOf(problems);
  }
}
