/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.gate;

import java.nio.file.Path;

/**
 * A line of the configuration file the gate cannot use: an unknown key, a value outside what its
 * key allows, a key given twice, or a line that is not {@code key = value}.
 *
 * @param line the line number, from 1; 0 for the whole file (not UTF-8 text)
 * @param key the key as written, empty when the line has none
 * @param value the value as written, or the whole line when it is not {@code key = value}
 * @param message what is wrong and what is allowed
 */
public record ConfigProblem(int line, String key, String value, String message) {
  /**
   * The problem in one line for people: the file, the line, the key, the value and what is wrong.
   *
   * @param file the configuration file
   */
  public String describe(Path file) {
    if (line == 0) {
      return file + ": " + message;
    }
    String what = key.isEmpty() ? "'" + value + "'" : key + " = '" + value + "'";
    return file + " line " + line + ": " + what + ": " + message;
  }
}
