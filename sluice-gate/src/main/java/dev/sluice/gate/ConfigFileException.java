/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import dev.sluice.SluiceException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The gate's configuration file has lines the gate cannot use, so the gate refuses to run rather
 * than fall back to defaults: a guard is never bypassed silently. The message names the file, each
 * line, its key and value and what is allowed, and how to fix it. Nothing was changed.
 */
public final class ConfigFileException extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final List<ConfigProblem> problems;

  /**
   * Creates the exception.
   *
   * @param file the configuration file
   * @param problems its unusable lines, at least one
   * @param advice what to do, appended to the message
   */
  public ConfigFileException(Path file, List<ConfigProblem> problems, String advice) {
    super(message(file, problems, advice));
    this.file = file;
    this.problems = List.copyOf(problems);
  }

  private static String message(Path file, List<ConfigProblem> problems, String advice) {
    return problems.stream().map(p -> p.describe(file)).collect(Collectors.joining("; "))
        + (advice.isEmpty() ? "" : "; " + advice);
  }

  /** The configuration file. */
  public Path file() {
    return file;
  }

  /** Its unusable lines. */
  public List<ConfigProblem> problems() {
    return problems;
  }
}
