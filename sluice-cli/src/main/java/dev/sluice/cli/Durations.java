/*
 * Copyright 2026 the Sluice authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.sluice.cli;

import dev.sluice.gate.DurationText;
import java.time.Duration;

/**
 * Parses and prints the durations the command accepts: {@code 500ms}, {@code 30s}, {@code 2m},
 * {@code 1h}, plain seconds ({@code 30}, {@code 1.5}) and ISO-8601 ({@code PT30S}), in the gate's
 * one syntax ({@link DurationText}, which the configuration file shares). Stateless and
 * thread-safe; never blocks.
 */
public final class Durations {
  /** What the messages say is allowed. */
  public static final String ALLOWED = DurationText.ALLOWED;

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @param text what the user typed
   * @return the duration, not negative
   * @throws IllegalArgumentException naming the value and what is allowed
   */
  public static Duration parse(String text) {
    return DurationText.parse(text);
  }

  /** Prints a duration for people: {@code 850ms}, {@code 42s}, {@code 3m07s}, {@code 2h05m}. */
  public static String human(Duration d) {
    if (d.isNegative()) {
      return "-" + human(d.negated());
    }
    long s = d.getSeconds();
    if (s < 1) {
      return d.toMillis() + "ms";
    }
    if (s < 10 && d.toMillis() % 1000 != 0) {
      return String.format("%d.%ds", s, d.toMillis() % 1000 / 100);
    }
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format("%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format("%dd%02dh", s / 86_400, (s % 86_400) / 3600);
  }
}
