/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli.mcp;

import dev.sluice.SluiceException;

/**
 * A tool was called with an argument it cannot use: the message names the argument, the value given
 * and what is allowed. Thrown before the gate is asked anything, so nothing was queued or changed.
 */
final class BadArgument extends SluiceException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final transient Object value;
  private final String allowed;

  /**
   * Creates the refusal.
   *
   * @param field the argument's name
   * @param value the value given, or {@code null} when it was missing
   * @param allowed what the argument takes, for example {@code a whole number from 1 to 10}
   */
  BadArgument(String field, Object value, String allowed) {
    super(field + " must be " + allowed + ", was " + shown(value));
    this.field = field;
    this.value = value;
    this.allowed = allowed;
  }

  /** The argument's name. */
  String field() {
    return field;
  }

  /** The value as the message shows it. */
  String shownValue() {
    return shown(value);
  }

  /** What the argument takes. */
  String allowed() {
    return allowed;
  }

  /** A value as a refusal quotes it: strings in quotes, cut to 80 characters. */
  static String shown(Object value) {
    if (value == null) {
      return "missing";
    }
    String s = value instanceof String text ? "'" + text + "'" : String.valueOf(value);
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
